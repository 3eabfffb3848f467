from typing import List

import torch

from .layout import Q4CacheConfig


class HostQ4Mirror:
    """Token-major host copy of the int4 cache used for prefix reuse after eviction."""

    def __init__(self, cfg: Q4CacheConfig, seq_capacity: int, device: str = "cpu"):
        self.cfg = cfg
        self.seq_capacity = seq_capacity
        self.n_layers = cfg.n_layers
        self.device = device
        self.kv_data: List[torch.Tensor] = []
        self.kv_params: List[torch.Tensor] = []

    def reserve(self) -> "HostQ4Mirror":
        c = self.cfg
        nibbles_per_byte = 2
        row = (c.head_dim + nibbles_per_byte - 1) // nibbles_per_byte
        pin = self.device == "cpu"
        for _ in range(self.n_layers):
            self.kv_data.append(
                torch.empty((self.seq_capacity, 2, c.n_kv_heads, row), dtype=torch.uint8,
                            device=self.device, pin_memory=pin)
            )
            # (scale, zero) pairs
            self.kv_params.append(
                torch.empty((self.seq_capacity, 2, c.n_kv_heads, 2), dtype=torch.half,
                            device=self.device, pin_memory=pin)
            )
        return self
