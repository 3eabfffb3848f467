"""Staging buffers used when live-migrating sequences between replicas."""
from typing import Optional

import torch

_FP8_KV = ("fp8_e4m3fn", "fp8_e5m2")


class MigrationStage:
    """Dense, slot-major copy of the shard's KV: [num_layers, num_slots, heads, head_dim]."""

    def __init__(self, config, *, dtype: torch.dtype, kv_cache_dtype: Optional[str],
                 world_size: int, num_slots: int, device="cpu"):
        self.num_layers = config.num_hidden_layers
        self.num_slots = num_slots
        self.heads = max(1, config.num_key_value_heads // world_size)
        # fp8 caches travel as raw bytes
        storage = torch.uint8 if kv_cache_dtype in _FP8_KV else dtype
        shape = (self.num_layers, num_slots, self.heads, config.head_dim)
        self.key_cache = torch.empty(shape, dtype=storage, device=device)
        self.value_cache = torch.empty(shape, dtype=storage, device=device)
        self.filled = 0

    def gather_from(self, kv_cache, slots: torch.Tensor) -> None:
        """Pull the given slots of every layer into the stage (de-paging the key layout)."""
        from .kv_cache import BLOCK_SIZE
        blocks, offsets = slots // BLOCK_SIZE, slots % BLOCK_SIZE
        n = slots.numel()
        for layer, cache in enumerate(kv_cache):
            k = cache.key_cache[blocks, :, :, offsets, :].reshape(n, self.heads, -1)
            v = cache.value_cache[blocks, :, :, offsets]
            self.key_cache[layer, :n].copy_(k.view(self.key_cache.dtype))
            self.value_cache[layer, :n].copy_(v.view(self.value_cache.dtype))
        self.filled = n
