"""Per-token tensor specs for every buffer of a KV layer."""
from __future__ import annotations

from typing import Dict, Tuple

import torch

from ..formats import CacheFormat

TensorSpec = Tuple[Tuple[int, ...], torch.dtype]


class ShapePlanner:
    """Decides the trailing (per-token) shape and dtype of each buffer.

    Quantised formats carry one fp32 dequantisation scale per KV head per
    token, written by the fused store kernel.
    """

    SCALE_DTYPE = torch.float32

    @classmethod
    def data_spec(cls, fmt: CacheFormat, heads: int, head_dim: int) -> TensorSpec:
        return (heads, head_dim), fmt.storage_dtype()

    @classmethod
    def scale_spec(cls, fmt: CacheFormat, heads: int) -> TensorSpec:
        return (heads,), cls.SCALE_DTYPE

    @classmethod
    def per_layer(cls, fmt: CacheFormat, heads: int, head_dim: int) -> Dict[str, TensorSpec]:
        specs = {"k_data": cls.data_spec(fmt, heads, head_dim),
                 "v_data": cls.data_spec(fmt, heads, head_dim)}
        if fmt.is_quantized:
            specs["k_scale"] = cls.scale_spec(fmt, heads)
            specs["v_scale"] = cls.scale_spec(fmt, heads)
        return specs
