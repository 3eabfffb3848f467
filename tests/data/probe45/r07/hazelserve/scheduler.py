from .cache import create_host_pool
from .cache.attn_pool import HybridAttnKVPool
from .model_config import HybridModelConfig


def init_hybrid_cache(hf_config, server_args):
    mcfg = HybridModelConfig.from_hf(hf_config)
    tp = server_args.get("tp_size", 1)
    device_pool = HybridAttnKVPool(
        size=server_args["max_total_tokens"],
        head_num=max(1, mcfg.num_key_value_heads // tp),
        head_dim=mcfg.head_dim,
        layer_ids=mcfg.attention_layer_ids,
        dtype=mcfg.dtype,
        device=server_args.get("device", "cuda"),
    )
    host_kwargs = device_pool.mirror_kwargs()
    host_kwargs["budget_bytes"] = int(server_args.get("host_mem_gb", 32) * (1 << 30)) // tp
    host_kwargs["page_size"] = server_args.get("page_size", 1)
    host_kwargs["device"] = server_args.get("host_device", "cpu")
    host_pool = create_host_pool(server_args.get("host_pool_kind", "hybrid"), **host_kwargs)
    return device_pool, host_pool
