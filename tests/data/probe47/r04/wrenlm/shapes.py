"""Shape helpers for per-layer KV slabs."""
from __future__ import annotations

from types import SimpleNamespace

import torch

DTYPES = {"bfloat16": torch.bfloat16, "float16": torch.float16, "float32": torch.float32}


class KVShape:
    @staticmethod
    def head_size(cfg: SimpleNamespace) -> int:
        explicit = getattr(cfg, "head_dim", None)
        return explicit if explicit else cfg.hidden_size // cfg.num_attention_heads

    @staticmethod
    def local_kv_heads(cfg: SimpleNamespace, tp_size: int) -> int:
        total = getattr(cfg, "num_key_value_heads", None) or cfg.num_attention_heads
        return max(1, total // tp_size)

    @staticmethod
    def slab(rows: int, cfg: SimpleNamespace, tp_size: int) -> tuple[int, int, int]:
        return (rows, KVShape.local_kv_heads(cfg, tp_size), KVShape.head_size(cfg))
