"""Pinned host mirror of a ScaledTokenPool used for hierarchical caching."""
from __future__ import annotations

import torch

from .base import TokenPoolBase


class PinnedMirrorPool(TokenPoolBase):
    @classmethod
    def from_device(cls, dev: TokenPoolBase, capacity: int, device: str = "cpu") -> "PinnedMirrorPool":
        return cls(capacity, dev.layer_count, dev.kv_heads, dev.head_dim, dev.dtype,
                   with_scales=dev.with_scales, device=device)

    def _empty(self, shape: tuple[int, ...], dtype: torch.dtype | None = None) -> torch.Tensor:
        pin = torch.device(self.device).type == "cpu" and torch.cuda.is_available()
        return torch.empty(shape, dtype=dtype or self.dtype, device=self.device, pin_memory=pin)

    def _create_buffers(self) -> None:
        for name in self.buffer_names:
            shape = self._shape_for(name)
            setattr(self, name, [self._empty(shape) for _ in range(self.depth)])

    def backup(self, dev: TokenPoolBase, dev_idx: torch.Tensor, host_idx: torch.Tensor) -> None:
        for name in self.buffer_names:
            src, dst = getattr(dev, name), getattr(self, name)
            for layer in range(self.depth):
                dst[layer][host_idx] = src[layer][dev_idx].to(self.device, non_blocking=True)
