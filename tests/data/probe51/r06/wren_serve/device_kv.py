"""GPU token pool with separate K (qk_head_dim) and V (v_head_dim) widths."""
from __future__ import annotations

import torch

from .model_dims import AttnDims


class AsymKVDevicePool:
    def __init__(self, dims: AttnDims, size: int, dtype: torch.dtype, layer_num: int,
                 device: str = "cuda"):
        self.dims = dims
        self.size = size
        self.dtype = dtype
        self.layer_num = layer_num
        widths = {"key": dims.qk_head_dim, "value": dims.v_head_dim}
        self._bufs = {
            name: [
                torch.zeros((size + 1, dims.num_heads, width), dtype=dtype, device=device)
                for _ in range(layer_num)
            ]
            for name, width in widths.items()
        }

    @property
    def key_buffer(self):
        return self._bufs["key"]

    @property
    def value_buffer(self):
        return self._bufs["value"]

    def get_kv_buffer(self, layer_id: int):
        return self._bufs["key"][layer_id], self._bufs["value"][layer_id]
