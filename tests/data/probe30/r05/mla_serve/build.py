"""Memory pool initialisation for the model runner."""
from typing import Any, Dict, Optional, Tuple

import torch

from .mem_cache.host_pool import MLATokenToKVPoolHost
from .mem_cache.memory_pool import MLATokenToKVPool
from .model_config import MLADims, load_config


def init_memory_pool(
    max_total_num_tokens: int = 8192,
    page_size: int = 1,
    hicache_ratio: float = 2.0,
    config_overrides: Optional[Dict[str, Any]] = None,
    device="cuda",
    host_device: Optional[str] = None,
) -> Tuple[MLATokenToKVPool, MLATokenToKVPoolHost]:
    dims = MLADims(load_config(overrides=config_overrides))
    pool = MLATokenToKVPool(max_total_num_tokens, page_size, dims, device=device)
    if host_device is None:
        host_device = "meta" if torch.device(device).type == "meta" else "cpu"
    host = MLATokenToKVPoolHost(pool, host_to_device_ratio=hicache_ratio, page_size=page_size, device=host_device)
    return pool, host
