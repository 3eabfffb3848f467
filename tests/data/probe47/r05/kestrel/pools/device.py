"""GPU pool storing fp8 K/V with one float32 scale per token per head."""
from __future__ import annotations

import torch

from .base import TokenPoolBase


class ScaledTokenPool(TokenPoolBase):
    scale_dtype = torch.float32

    def _create_buffers(self) -> None:
        for name in self.buffer_names:
            dtype = self.scale_dtype if name.endswith("_scale") else self.dtype
            shape = self._shape_for(name)
            setattr(self, name, [self._empty(shape, dtype) for _ in range(self.depth)])

    def get_kv(self, layer_id: int):
        k, v = self.k_data[layer_id], self.v_data[layer_id]
        if not self.with_scales:
            return k, v
        return (k, self.k_scale[layer_id]), (v, self.v_scale[layer_id])
