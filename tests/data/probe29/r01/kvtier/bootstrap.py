"""Wire the device pool and the offload tier from model + server config."""
from .device_pool import FusedKVPool
from .hf_config import LlamaLikeConfig, ServerArgs, resolve_kv_dtype
from .offload import CpuOffloadTier


def build_kv(model_config=None, server_args=None, device="cuda", host_device="cpu"):
    model_config = model_config or LlamaLikeConfig()
    server_args = server_args or ServerArgs()
    tp = server_args.tp_size
    head_num = max(1, model_config.num_key_value_heads // tp)
    pool = FusedKVPool(
        size=server_args.max_total_tokens,
        head_num=head_num,
        head_dim=model_config.get_head_dim(),
        layer_num=model_config.num_hidden_layers,
        dtype=resolve_kv_dtype(server_args.kv_cache_dtype, model_config),
        device=device,
    )
    tier = None
    if server_args.enable_offload:
        tier = CpuOffloadTier(
            pool,
            server_args.kv_cache_dtype,
            ratio=server_args.offload_ratio,
            host_device=host_device,
        )
    return pool, tier
