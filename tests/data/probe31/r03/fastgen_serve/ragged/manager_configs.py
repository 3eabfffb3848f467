from typing import NamedTuple, Tuple

import torch


class KVCacheConfig(NamedTuple):
    """Describes one allocation group of the blocked KV cache.

    ``cache_shape`` is ``(num_caches, num_heads, head_size)`` where
    ``num_caches`` is the number of transformer layers sharing the group.
    """

    block_size: int
    cache_shape: Tuple[int, int, int]
    cache_dtype: torch.dtype = torch.float16
    max_blocks_per_allocation_group: int = 64

    @property
    def num_caches(self) -> int:
        return self.cache_shape[0]

    @property
    def num_heads(self) -> int:
        return self.cache_shape[1]

    @property
    def head_size(self) -> int:
        return self.cache_shape[2]
