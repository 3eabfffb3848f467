"""Blocked (ragged) KV cache: one allocation per cache group."""
from typing import List, Tuple

import torch

from .config import AllocationMode, KVCacheConfig, MemoryConfig


def _elem(dtype: torch.dtype) -> int:
    return torch.empty((), dtype=dtype, device="meta").element_size()


def block_bytes(config: KVCacheConfig) -> int:
    num_caches, num_heads, head_size = config.cache_shape
    return num_caches * config.block_size * 2 * num_heads * head_size * _elem(config.cache_dtype)


class BlockedKVCache:

    def __init__(self, configs: Tuple[KVCacheConfig, ...], memory_config: MemoryConfig,
                 device: str = "cuda", free_memory: int = 0):
        self._configs = configs
        if memory_config.mode == AllocationMode.RESERVE:
            budget = max(0, free_memory - memory_config.size)
        else:
            budget = memory_config.size
        per_group = budget // len(configs)
        self._caches: List[torch.Tensor] = []
        self.num_blocks: List[int] = []
        for cfg in configs:
            num_caches, num_heads, head_size = cfg.cache_shape
            n_blocks = per_group // block_bytes(cfg)
            if n_blocks == 0:
                raise ValueError("not enough memory for a single KV block")
            alloc_shape = (num_caches, n_blocks, cfg.block_size, 2, num_heads, head_size)
            self._caches.append(torch.empty(alloc_shape, dtype=cfg.cache_dtype, device=device))
            self.num_blocks.append(n_blocks)

    def get_cache(self, cache_id: int, cache_group: int = 0) -> torch.Tensor:
        return self._caches[cache_group][cache_id]

    @property
    def configs(self):
        return self._configs
