import copy

from .cache_engine import DeviceBlockCache, SwapBlockCache


def init_cache_engines(model_config, cache_config, parallel, num_gpu_blocks,
                       overrides=None, device="cuda", swap_device="cpu"):
    """Profiling decides num_gpu_blocks; per-deployment overrides (e.g. an
    fp8 cache for a long-context tenant) are applied on a copy so the shared
    CacheConfig object is left untouched."""
    gpu_cfg = copy.deepcopy(cache_config)
    gpu_cfg.num_gpu_blocks = num_gpu_blocks
    for key, value in (overrides or {}).items():
        if not hasattr(gpu_cfg, key):
            raise ValueError(f"unknown cache override {key!r}")
        setattr(gpu_cfg, key, value)

    device_cache = DeviceBlockCache(gpu_cfg, model_config, parallel, device=device)
    swap_cache = SwapBlockCache(cache_config, model_config, parallel, device=swap_device)
    return device_cache, swap_cache
