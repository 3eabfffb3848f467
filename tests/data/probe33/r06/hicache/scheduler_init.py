"""Scheduler-side memory pool initialisation."""

import torch

from .memory_pool import MLATokenToKVPool
from .memory_pool_host import MLATokenToKVPoolHost
from .model_config import MLAConfig, pp_layer_range


def init_memory_pool(cfg=None, max_total_num_tokens=65536, page_size=64, kv_cache_dtype=torch.bfloat16,
                     pp_rank=0, pp_size=1, hicache_ratio=2.0, hicache_layout="page_first",
                     device="cuda", host_device=None):
    """Return (token_to_kv_pool, host_pool)."""
    cfg = cfg or MLAConfig()
    if host_device is None:
        host_device = "meta" if str(device) == "meta" else "cpu"
    start, end = pp_layer_range(cfg.num_hidden_layers, pp_rank, pp_size)
    pool = MLATokenToKVPool(max_total_num_tokens, page_size, kv_cache_dtype, cfg, start, end, device=device)
    host = MLATokenToKVPoolHost(pool, hicache_ratio, layout=hicache_layout, device=host_device)
    return pool, host
