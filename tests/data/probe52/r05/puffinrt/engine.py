"""Cache construction for the runtime."""
from .device_cache import Fp4PackedKVCache
from .host_cache import Fp4HostStage
from .quant import Fp4Scheme


def create_fp4_caches(model_cfg, cache_cfg, device="cuda", host_device="cpu"):
    head_dim = getattr(model_cfg, "head_dim", model_cfg.hidden_size // model_cfg.num_attention_heads)
    kv_heads = model_cfg.num_key_value_heads // cache_cfg.tp_size
    gpu = Fp4PackedKVCache(
        model_cfg.num_hidden_layers, kv_heads, head_dim, cache_cfg.gpu_tokens,
        Fp4Scheme.named(cache_cfg.kv_cache_dtype), cache_cfg.page_size, device=device,
    )
    host = Fp4HostStage(gpu, cache_cfg.host_tokens, device=host_device)
    return gpu, host
