from dataclasses import replace

from .cache_config import CacheConfig
from .paged import PagedKVPool
from .host_paged import HostPagedKVPool


def _pool_kwargs(cfg, num_blocks, device):
    return dict(
        num_blocks=num_blocks,
        block_size=cfg.block_size,
        num_layers=cfg.num_layers,
        num_kv_heads=cfg.num_kv_heads,
        head_dim=cfg.head_dim,
        dtype=cfg.dtype,
        device=device,
    )


def build_pools(cfg=None):
    cfg = cfg or CacheConfig()
    gpu_cfg = replace(cfg, dtype=cfg.fp8_dtype) if cfg.fp8_kv_cache else cfg
    gpu_pool = PagedKVPool(**_pool_kwargs(gpu_cfg, cfg.num_gpu_blocks, cfg.device))
    cpu_pool = HostPagedKVPool(**_pool_kwargs(cfg, cfg.num_cpu_blocks, cfg.cpu_device))
    return gpu_pool, cpu_pool
