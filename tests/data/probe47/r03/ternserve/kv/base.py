"""Abstract base for KV pools and dtype handling shared by all tiers."""
from __future__ import annotations

from abc import ABC, abstractmethod

import torch

KV_DTYPES = {
    "auto": None,
    "bfloat16": torch.bfloat16,
    "fp8_e4m3": torch.float8_e4m3fn,
    "fp8_e5m2": torch.float8_e5m2,
}


class KVPoolBase(ABC):
    """Tracks logical dtype vs. storage dtype (fp8 is stored as raw bytes)."""

    def __init__(self, dtype: torch.dtype, device: str):
        self.dtype = dtype
        self.device = device

    @property
    def store_dtype(self) -> torch.dtype:
        if self.dtype in (torch.float8_e4m3fn, torch.float8_e5m2):
            return torch.uint8
        return self.dtype

    @abstractmethod
    def _alloc(self) -> None:
        ...

    @abstractmethod
    def layer_buffer(self, layer_id: int) -> torch.Tensor:
        ...
