from typing import List, Sequence, Tuple

import torch

from .manager_configs import KVCacheConfig


class BlockedKVCache:
    """Blocked KV storage in the FastGen layout.

    Every allocation group is a single tensor of shape
    ``(num_caches, num_blocks, block_size, 2, num_heads, head_size)`` where
    the ``2`` axis interleaves keys and values for the same token.
    """

    def __init__(self, configs: Sequence[KVCacheConfig], num_blocks: int, device: str = "cuda"):
        self._configs = tuple(configs)
        self._num_blocks = num_blocks
        self._caches: List[torch.Tensor] = []
        for cfg in self._configs:
            num_caches, num_heads, head_size = cfg.cache_shape
            alloc_shape = (num_caches, num_blocks, cfg.block_size, 2, num_heads, head_size)
            self._caches.append(torch.empty(alloc_shape, dtype=cfg.cache_dtype, device=device))
        self._free_blocks = [list(range(num_blocks)) for _ in self._configs]

    @property
    def num_allocation_groups(self) -> int:
        return len(self._caches)

    @property
    def configs(self) -> Tuple[KVCacheConfig, ...]:
        return self._configs

    def get_cache(self, cache_id: int, cache_group: int = 0) -> torch.Tensor:
        return self._caches[cache_group][cache_id]

    def group(self, cache_group: int = 0) -> torch.Tensor:
        return self._caches[cache_group]

    def reserve(self, num_blocks: int, cache_group: int = 0) -> List[int]:
        free = self._free_blocks[cache_group]
        if num_blocks > len(free):
            raise ValueError("not enough free KV blocks")
        out, self._free_blocks[cache_group] = free[:num_blocks], free[num_blocks:]
        return out

    def free(self, blocks: List[int], cache_group: int = 0) -> None:
        self._free_blocks[cache_group].extend(blocks)
