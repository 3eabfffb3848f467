"""Abstract token pool: common bookkeeping, subclasses create the buffers."""
from __future__ import annotations

from abc import ABC, abstractmethod

import torch


class TokenPoolBase(ABC):
    BUFFER_NAMES: tuple[str, ...] = ("k_data", "v_data")

    def __init__(self, capacity: int, depth: int, kv_heads: int, head_dim: int,
                 dtype: torch.dtype, with_scales: bool = False, device: str = "cuda"):
        self.capacity = capacity
        self.depth = depth
        self.kv_heads = kv_heads
        self.head_dim = head_dim
        self.with_scales = with_scales
        self.device = device
        self._dtype = dtype
        self._create_buffers()

    @property
    def dtype(self) -> torch.dtype:
        return self._dtype

    @property
    def layer_count(self) -> int:
        return self.depth

    @property
    def buffer_names(self) -> tuple[str, ...]:
        if self.with_scales:
            return self.BUFFER_NAMES + ("k_scale", "v_scale")
        return self.BUFFER_NAMES

    def _empty(self, shape: tuple[int, ...], dtype: torch.dtype | None = None) -> torch.Tensor:
        return torch.empty(shape, dtype=dtype or self._dtype, device=self.device)

    def _shape_for(self, name: str) -> tuple[int, ...]:
        if name.endswith("_scale"):
            return (self.capacity, self.kv_heads)
        return (self.capacity, self.kv_heads, self.head_dim)

    @abstractmethod
    def _create_buffers(self) -> None:
        ...
