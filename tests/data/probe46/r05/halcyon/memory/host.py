"""Host mirror used by hierarchical caching (GPU -> pinned CPU)."""
from __future__ import annotations

from functools import cached_property

import torch

from ..formats import CacheFormat
from .planner import ShapePlanner


class HostKVMirror:
    def __init__(self, fmt: CacheFormat, layers: int, heads: int, head_dim: int, tokens: int,
                 device: str = "cpu"):
        self.fmt = fmt
        self.layers = layers
        self.heads = heads
        self.head_dim = head_dim
        self.tokens = tokens
        (tail, dtype) = ShapePlanner.data_spec(fmt, heads, head_dim)
        self.k_data = [torch.empty((tokens, *tail), dtype=dtype, device=device) for _ in range(layers)]
        self.v_data = [torch.empty((tokens, *tail), dtype=dtype, device=device) for _ in range(layers)]
        if fmt.is_quantized:
            # scales travel with their data in the same pinned chunk
            self.k_scale = [torch.empty((tokens, heads), dtype=dtype, device=device) for _ in range(layers)]
            self.v_scale = [torch.empty((tokens, heads), dtype=dtype, device=device) for _ in range(layers)]

    @cached_property
    def bytes_per_token(self) -> int:
        per_layer = 2 * self.heads * self.head_dim * self.fmt.element_bytes()
        if self.fmt.is_quantized:
            per_layer += 2 * self.heads * self.fmt.element_bytes()
        return per_layer * self.layers
