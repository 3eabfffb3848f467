"""KV cache storage formats."""
from __future__ import annotations

from enum import Enum

import torch


class KVFormat(str, Enum):
    BF16 = "bf16"
    FP16 = "fp16"
    FP8_E4M3 = "fp8_e4m3"

    @property
    def torch_dtype(self) -> torch.dtype:
        return {
            KVFormat.BF16: torch.bfloat16,
            KVFormat.FP16: torch.float16,
            KVFormat.FP8_E4M3: torch.float8_e4m3fn,
        }[self]

    @property
    def has_scales(self) -> bool:
        return self is KVFormat.FP8_E4M3
