"""Secondary (host) block pool used when primary blocks are evicted."""
from typing import List

import torch

from .dtypes import dtype_size
from .kv_cache_manager import KVCacheManager


class SecondaryPoolManager:

    def __init__(self, layer_groups, head_size: int, tokens_per_block: int,
                 dtype: torch.dtype, num_blocks: int, device: str = "cpu"):
        self.layer_groups = layer_groups
        self.head_size = head_size
        self.tokens_per_block = tokens_per_block
        self.dtype = dtype
        self.num_blocks = num_blocks
        pin = device == "cpu" and torch.cuda.is_available()
        self.pools: List[torch.Tensor] = []
        for group in layer_groups:
            width = group.num_kv_heads * tokens_per_block * head_size
            self.pools.append(
                torch.empty(num_blocks, group.num_layers, 2, width,
                            dtype=dtype, device=device, pin_memory=pin))

    @property
    def num_tokens(self) -> int:
        return self.num_blocks * self.tokens_per_block

    def offload(self, primary: KVCacheManager, src: int, dst: int) -> None:
        for host_pool, dev_pool in zip(self.pools, primary.pools):
            host_pool[dst].copy_(dev_pool[src], non_blocking=True)

    def onboard(self, primary: KVCacheManager, src: int, dst: int) -> None:
        for host_pool, dev_pool in zip(self.pools, primary.pools):
            dev_pool[dst].copy_(host_pool[src], non_blocking=True)


def create_secondary_pool(primary: KVCacheManager, host_cache_size: int,
                          device: str = "cpu") -> SecondaryPoolManager:
    """Size the host pool from a byte budget using the primary's block geometry."""
    block_bytes = 0
    for group in primary.layer_groups:
        block_bytes += (2 * group.num_layers * group.num_kv_heads *
                        primary.head_size * primary.tokens_per_block)
    block_bytes *= dtype_size(primary.dtype)
    num_blocks = max(1, host_cache_size // block_bytes)
    return SecondaryPoolManager(primary.layer_groups, primary.head_size,
                                primary.tokens_per_block, primary.dtype,
                                num_blocks, device=device)
