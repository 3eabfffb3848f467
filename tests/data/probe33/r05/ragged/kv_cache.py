"""Blocked KV cache: (num_layers, num_blocks, block_size, 2, num_kv_heads, head_size)."""

import torch

from .blocked_allocator import BlockedAllocator
from .config import KVCacheConfig


class BlockedKVCache:
    def __init__(self, config: KVCacheConfig, num_blocks: int, device="cuda"):
        self.num_layers = config.num_layers
        self.num_blocks = num_blocks
        self.block_size = config.block_size
        self.cache_shape = (config.num_layers, num_blocks, config.block_size, 2,
                            config.num_kv_heads, config.head_size)
        self.caches = torch.empty(self.cache_shape, dtype=config.cache_dtype, device=device)
        self.allocator = BlockedAllocator(num_blocks)

    def reserve(self, num_blocks: int) -> torch.Tensor:
        return self.allocator.allocate(num_blocks)

    def free(self, blocks: torch.Tensor) -> None:
        self.allocator.free(blocks)

    def get_cache(self, layer_id: int) -> torch.Tensor:
        return self.caches[layer_id]
