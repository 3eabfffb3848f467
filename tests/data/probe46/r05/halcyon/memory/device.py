"""GPU-resident KV buffers."""
from __future__ import annotations

from functools import cached_property

import torch

from ..formats import CacheFormat
from .planner import ShapePlanner, TensorSpec


class DeviceKVBuffers:
    def __init__(self, fmt: CacheFormat, layers: int, heads: int, head_dim: int, tokens: int, device: str):
        self.fmt = fmt
        self.layers = layers
        self.heads = heads
        self.head_dim = head_dim
        self.tokens = tokens
        for name, (tail, dtype) in self.layer_specs.items():
            setattr(self, name, [torch.empty((tokens + 1, *tail), dtype=dtype, device=device)
                                 for _ in range(layers)])

    @cached_property
    def layer_specs(self) -> dict[str, TensorSpec]:
        return ShapePlanner.per_layer(self.fmt, self.heads, self.head_dim)

    @cached_property
    def bytes_per_token(self) -> int:
        total = 0
        for tail, dtype in self.layer_specs.values():
            n = 1
            for d in tail:
                n *= d
            total += n * dtype.itemsize
        return total * self.layers
