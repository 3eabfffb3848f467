from .configs import ModelConfig, ServeArgs
from .configs.model_config import KV_DTYPE_MAP
from .mem import get_pool_cls


def build_memory_pools(model_config: ModelConfig, args: ServeArgs):
    assert model_config.is_mla, "only MLA models are wired up in this worker"
    kv_dtype = KV_DTYPE_MAP[args.kv_cache_dtype] or model_config.dtype

    shape_kwargs = dict(
        layer_num=model_config.num_layers,
        kv_lora_rank=model_config.kv_lora_rank,
        qk_rope_head_dim=model_config.qk_rope_head_dim,
    )
    device_cls = get_pool_cls("mla_device")
    device_pool = device_cls(
        size=args.max_total_tokens,
        page_size=args.page_size,
        dtype=kv_dtype,
        device=args.device,
        **shape_kwargs,
    )

    host_pool = None
    if args.hier_cache:
        host_kwargs = dict(shape_kwargs)
        host_kwargs.update(
            size=int(device_pool.size * args.hier_host_ratio),
            page_size=args.page_size,
            kv_dtype=device_pool.store_dtype,
            device=args.hier_host_device,
        )
        host_kwargs.update(args.extra)
        host_pool = get_pool_cls("mla_host")(**host_kwargs)
    return device_pool, host_pool
