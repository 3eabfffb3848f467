"""CPU tier for evicted prefix-cache blocks."""
import torch

from ..layers.kv_cache import BLOCK_SIZE
from .block_index import PrefixBlockIndex


class CpuPrefixTier:
    def __init__(self, num_blocks, num_layers, num_heads, head_size, dtype, device="cpu"):
        self.num_blocks = num_blocks
        self.num_layers = num_layers
        self.dtype = dtype
        pin = str(device) == "cpu"
        self.kv_cache = [
            torch.empty((num_blocks, 2, BLOCK_SIZE, num_heads, head_size), dtype=dtype,
                        device=device, pin_memory=pin)
            for _ in range(num_layers)
        ]
        self.free_blocks = list(range(num_blocks))
        self.index = PrefixBlockIndex(num_blocks)

    def evict(self, gpu_cache, prefix_hash, gpu_block):
        cpu_block = self.free_blocks.pop() if self.free_blocks else self.index.evict_lru()
        for layer in range(self.num_layers):
            self.kv_cache[layer][cpu_block].copy_(gpu_cache.kv_cache[layer][gpu_block], non_blocking=True)
        self.index.insert(prefix_hash, cpu_block)
        return cpu_block

    def restore(self, gpu_cache, prefix_hash, gpu_block):
        cpu_block = self.index.pop(prefix_hash)
        for layer in range(self.num_layers):
            gpu_cache.kv_cache[layer][gpu_block].copy_(self.kv_cache[layer][cpu_block], non_blocking=True)
        self.free_blocks.append(cpu_block)
