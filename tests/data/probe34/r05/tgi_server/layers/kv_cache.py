"""Paged KV cache in the flashinfer layout."""
import torch

BLOCK_SIZE = 16


class PagedKVCache:
    """One ``[num_blocks, 2, BLOCK_SIZE, num_heads, head_size]`` tensor per layer."""

    def __init__(self, num_blocks, num_layers, num_heads, head_size, dtype,
                 kv_cache_dtype=None, device="cuda"):
        self.num_blocks = num_blocks
        self.num_layers = num_layers
        self.num_heads = num_heads
        self.head_size = head_size
        self.dtype = kv_cache_dtype if kv_cache_dtype is not None else dtype
        self.kv_cache = [
            torch.empty((num_blocks, 2, BLOCK_SIZE, num_heads, head_size), dtype=self.dtype, device=device)
            for _ in range(num_layers)
        ]

    def store(self, layer_id, key, value, slots):
        cache = self.kv_cache[layer_id]
        blocks, offsets = slots // BLOCK_SIZE, slots % BLOCK_SIZE
        cache[blocks, 0, offsets] = key.to(self.dtype)
        cache[blocks, 1, offsets] = value.to(self.dtype)

    @property
    def num_slots(self):
        return self.num_blocks * BLOCK_SIZE

    def memory_bytes(self):
        return sum(t.numel() * t.element_size() for t in self.kv_cache)
