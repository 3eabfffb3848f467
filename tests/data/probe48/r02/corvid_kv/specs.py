"""Declarative description of the per-token buffers a KV pool holds."""
from __future__ import annotations

import math
from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class BufferSpec:
    """One buffer of the pool: its name, element dtype and per-token shape."""

    name: str
    dtype: torch.dtype
    token_shape: tuple[int, ...]

    @property
    def bytes_per_token(self) -> int:
        return math.prod(self.token_shape) * self.dtype.itemsize


_KV_DTYPES = {
    "auto": None,
    "bf16": torch.bfloat16,
    "fp16": torch.float16,
    "fp8": torch.float8_e4m3fn,
}


def attention_specs(kv_heads: int, head_dim: int, cache_dtype: str,
                    model_dtype: torch.dtype) -> list[BufferSpec]:
    """K and V are fused along a leading axis of 2; fp8 adds one fp32 scale per head."""
    dtype = _KV_DTYPES[cache_dtype] or model_dtype
    specs = [BufferSpec("kv", dtype, (2, kv_heads, head_dim))]
    if dtype.itemsize == 1:
        specs.append(BufferSpec("kv_scale", torch.float32, (2, kv_heads)))
    return specs
