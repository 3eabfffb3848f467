"""Mixin that contributes the fp8 dequantisation scale buffers to a cache."""
from __future__ import annotations

from typing import ClassVar

import torch


class ScaleBuffersMixin:
    """Adds ``k_scale`` / ``v_scale``: per-layer fp32 scales, one row per token slot.

    ``scale_granularity`` selects the row width:
      * ``"token"`` - a single scale per token, shared by all KV heads
      * ``"head"``  - one scale per KV head
    The host class must set ``num_layers`` and ``kv_heads`` before calling
    ``_alloc_scales``.
    """

    scale_granularity: ClassVar[str] = "token"
    SCALE_DTYPE: ClassVar[torch.dtype] = torch.float32

    num_layers: int
    kv_heads: int

    def _scale_width(self) -> int:
        if self.scale_granularity == "head":
            return self.kv_heads
        if self.scale_granularity == "token":
            return 1
        raise ValueError(f"unknown scale granularity {self.scale_granularity!r}")

    def _alloc_scales(self, slots: int, device: str | torch.device) -> None:
        width = self._scale_width()
        self.k_scale = [torch.ones((slots, width), dtype=self.SCALE_DTYPE, device=device)
                        for _ in range(self.num_layers)]
        self.v_scale = [torch.ones((slots, width), dtype=self.SCALE_DTYPE, device=device)
                        for _ in range(self.num_layers)]
