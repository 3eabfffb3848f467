"""Host pool, layer-first: one tensor per name with a leading layer axis."""
from __future__ import annotations

import torch

from .model_dims import AttnDims


class AsymKVHostPool:
    def __init__(self, dims: AttnDims, host_size: int, dtype: torch.dtype, layer_num: int,
                 page_size: int = 64, device: str = "cpu"):
        self.page_size = page_size
        self.size = host_size - host_size % page_size
        self.dtype = dtype
        self._bufs = {}
        for name in ("key", "value"):
            self._bufs[name] = torch.empty(
                (layer_num, self.size, dims.num_heads, dims.head_dim),
                dtype=dtype, device=device)

    @property
    def key_buffer(self):
        return self._bufs["key"]

    @property
    def value_buffer(self):
        return self._bufs["value"]

    def bytes_per_page(self) -> int:
        return sum(b[0, : self.page_size].numel() for b in self._bufs.values()) * self.dtype.itemsize
