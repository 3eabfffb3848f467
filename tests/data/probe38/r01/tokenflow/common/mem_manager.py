"""Token-granular KV memory on the accelerator.

Each layer owns one buffer of shape (slots, 2 * kv_heads, head_size): the
first ``kv_heads`` rows of a slot hold K, the remaining rows hold V.  Slots are
handed out one token at a time by ``TokenSlotAllocator``.
"""
import logging
from typing import List

import torch

logger = logging.getLogger(__name__)


class TokenSlotAllocator:
    def __init__(self, total_slots: int, device="cpu"):
        self.total_slots = total_slots
        self.free_slots = torch.arange(total_slots, dtype=torch.int64, device=device)
        self.num_free = total_slots

    def alloc(self, n: int) -> torch.Tensor:
        if n > self.num_free:
            raise RuntimeError(f"out of KV slots: want {n}, have {self.num_free}")
        start = self.total_slots - self.num_free
        self.num_free -= n
        return self.free_slots[start:start + n]

    def free(self, idx: torch.Tensor) -> None:
        self.num_free += int(idx.numel())


class DeviceTokenKVStore:
    def __init__(self, slots: int, kv_dtype: torch.dtype, kv_heads: int,
                 head_size: int, n_layers: int, device="cpu"):
        self.slots = slots
        self.kv_dtype = kv_dtype
        self.kv_heads = kv_heads
        self.head_size = head_size
        self.n_layers = n_layers
        self.device = device
        self.allocator = TokenSlotAllocator(slots, device=device)
        self._init_buffers()
        logger.info("device KV store: %d slots, %.2f GiB", slots,
                    self.total_bytes() / (1 << 30))

    def _init_buffers(self) -> None:
        self.kv_buffer: List[torch.Tensor] = [
            torch.empty((self.slots, 2 * self.kv_heads, self.head_size),
                        dtype=self.kv_dtype, device=self.device)
            for _ in range(self.n_layers)
        ]

    def total_bytes(self) -> int:
        return sum(buf.numel() * buf.element_size() for buf in self.kv_buffer)

    def key_view(self, layer: int) -> torch.Tensor:
        return self.kv_buffer[layer][:, : self.kv_heads, :]

    def value_view(self, layer: int) -> torch.Tensor:
        return self.kv_buffer[layer][:, self.kv_heads:, :]

    def write(self, layer: int, loc: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> None:
        buf = self.kv_buffer[layer]
        buf[loc, : self.kv_heads] = k.to(self.kv_dtype)
        buf[loc, self.kv_heads:] = v.to(self.kv_dtype)
