from .config import ModelConfig, ServerArgs
from .mem_pool import MLATokenToKVPool, resolve_kv_cache_dtype
from .memory_pool_host import MLATokenToKVPoolHost


def build_hicache(device: str = "cuda", server_args: ServerArgs = None, model_config: ModelConfig = None):
    server_args = server_args or ServerArgs()
    model_config = model_config or ModelConfig()

    kv_dtype = resolve_kv_cache_dtype(server_args.kv_cache_dtype, model_config.dtype)
    token_to_kv_pool = MLATokenToKVPool(
        size=server_args.max_total_tokens,
        page_size=server_args.page_size,
        dtype=kv_dtype,
        kv_lora_rank=model_config.kv_lora_rank,
        qk_rope_head_dim=model_config.qk_rope_head_dim,
        layer_num=model_config.num_hidden_layers,
        device=device,
    )
    host_pool = MLATokenToKVPoolHost(
        token_to_kv_pool,
        kv_cache_dtype=server_args.kv_cache_dtype,
        model_dtype=model_config.dtype,
        host_to_device_ratio=server_args.hicache_ratio,
        host_size=server_args.hicache_size,
        page_size=server_args.page_size,
        device="meta" if device == "meta" else "cpu",
    )
    return token_to_kv_pool, host_pool
