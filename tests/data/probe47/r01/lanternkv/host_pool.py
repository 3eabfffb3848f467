"""Host-memory mirror of StackedKVPool backed by a flat byte arena."""
from __future__ import annotations

import torch

from .device_pool import StackedKVPool


class HostArenaPool:
    """One pinned uint8 arena, reinterpreted with the device pool's dtype."""

    def __init__(self, device_pool: StackedKVPool, capacity_tokens: int,
                 device: str = "cpu", pin_memory: bool = True):
        self.device_pool = device_pool
        self.capacity = capacity_tokens
        self.depth = device_pool.depth
        self.head_num = device_pool.head_num
        self.head_dim = device_pool.head_dim
        self.dtype = device_pool.dtype
        self.stride = device_pool.token_stride_bytes
        arena_bytes = self.depth * self.capacity * self.stride
        pin = pin_memory and torch.device(device).type == "cpu" and torch.cuda.is_available()
        self.arena = torch.empty(arena_bytes, dtype=torch.uint8, device=device, pin_memory=pin)
        self.kv_data = self.arena.view(self.dtype).view(
            self.depth, 2, self.capacity, self.head_num, self.head_dim
        )

    def load_to_device(self, host_idx: torch.Tensor, device_idx: torch.Tensor) -> None:
        for layer in range(self.depth):
            self.device_pool.kv_data[layer, :, device_idx] = self.kv_data[layer, :, host_idx].to(
                self.device_pool.device, non_blocking=True
            )

    def backup_from_device(self, device_idx: torch.Tensor, host_idx: torch.Tensor) -> None:
        for layer in range(self.depth):
            self.kv_data[layer, :, host_idx] = self.device_pool.kv_data[layer, :, device_idx].cpu()
