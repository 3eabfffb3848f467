"""Host mirror that follows the device pool's buffer specs."""
from __future__ import annotations

import torch

from .device import GpuTokenPool
from .specs import BufferSpec


class HostTokenMirror(GpuTokenPool):
    """CPU copy of a GpuTokenPool used as the second tier of the radix cache.

    The spec list is taken from the device pool. The fused K/V entry is rebuilt
    as a flat byte row so the swap-in/out path is a plain memcpy regardless of
    the cache dtype; every other buffer keeps the device spec unchanged.
    """

    @classmethod
    def mirror_of(cls, pool: GpuTokenPool, num_slots: int,
                  device: str | torch.device = "cpu") -> "HostTokenMirror":
        specs = list(pool.specs)
        for i, spec in enumerate(specs):
            if spec.name == "kv":
                specs[i] = BufferSpec("kv", torch.uint8, (spec.bytes_per_token,))
        return cls(specs, num_slots=num_slots, num_layers=pool.num_layers, device=device)
