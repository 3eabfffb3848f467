"""Row layout used by the CPU offload tier."""
from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import torch


@dataclass(frozen=True)
class OffloadLayout:
    kv_heads: int
    head_size: int
    dtype: torch.dtype

    @classmethod
    def from_config(cls, cfg: SimpleNamespace, tp_size: int, dtype: torch.dtype) -> "OffloadLayout":
        total = getattr(cfg, "num_key_value_heads", cfg.num_attention_heads)
        return cls(
            kv_heads=max(1, total // tp_size),
            head_size=cfg.hidden_size // cfg.num_attention_heads,
            dtype=dtype,
        )

    def row_shape(self, rows: int) -> tuple[int, int, int]:
        return (rows, self.kv_heads, self.head_size)
