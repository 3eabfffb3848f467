"""Accelerator-resident blocked KV cache.

A single tensor of shape
    (num_blocks, num_layers, 2, block_size, kv_heads, head_size)
so that one block holds every layer's K and V for ``block_size`` tokens.
"""
import math

import torch


class BlockedKVCache:
    def __init__(self, block_size, num_layers, kv_heads, head_size, dtype,
                 memory_bytes, device="cpu"):
        self.block_size = block_size
        self.num_layers = num_layers
        self.kv_heads = kv_heads
        self.head_size = head_size
        self.dtype = dtype
        elem = torch.finfo(dtype).bits // 8
        bytes_per_block = (num_layers * 2 * block_size * kv_heads * head_size * elem)
        self.num_blocks = max(1, memory_bytes // bytes_per_block)
        shape = (self.num_blocks, num_layers, 2, block_size, kv_heads, head_size)
        self.kv_blocks = torch.empty(shape, dtype=dtype, device=device)
        self._free = list(range(self.num_blocks))

    @property
    def free_blocks(self) -> int:
        return len(self._free)

    def reserve(self, num_tokens: int):
        n = math.ceil(num_tokens / self.block_size)
        if n > len(self._free):
            raise RuntimeError("insufficient KV blocks")
        taken, self._free = self._free[:n], self._free[n:]
        return taken

    def release(self, blocks):
        self._free.extend(blocks)

    def layer_view(self, layer: int) -> torch.Tensor:
        return self.kv_blocks[:, layer]
