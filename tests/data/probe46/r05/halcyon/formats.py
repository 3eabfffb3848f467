"""Supported KV cache storage formats."""
from __future__ import annotations

import enum

import torch


class CacheFormat(enum.Enum):
    BF16 = "bf16"
    FP16 = "fp16"
    FP8_E4M3 = "fp8_e4m3"
    FP8_E5M2 = "fp8_e5m2"

    @classmethod
    def parse(cls, value: str, model_dtype: torch.dtype) -> "CacheFormat":
        if value == "auto":
            return cls.BF16 if model_dtype == torch.bfloat16 else cls.FP16
        return cls(value)

    def storage_dtype(self) -> torch.dtype:
        return {
            CacheFormat.BF16: torch.bfloat16,
            CacheFormat.FP16: torch.float16,
            CacheFormat.FP8_E4M3: torch.float8_e4m3fn,
            CacheFormat.FP8_E5M2: torch.float8_e5m2,
        }[self]

    def element_bytes(self) -> int:
        return torch.empty((), dtype=self.storage_dtype(), device="meta").element_size()

    @property
    def is_quantized(self) -> bool:
        return self in (CacheFormat.FP8_E4M3, CacheFormat.FP8_E5M2)
