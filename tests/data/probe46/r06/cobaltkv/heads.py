"""Head partitioning helpers."""
from __future__ import annotations

from typing import Any

import torch

STR2DTYPE: dict[str, torch.dtype] = {
    "bfloat16": torch.bfloat16,
    "float16": torch.float16,
    "float32": torch.float32,
    "fp8_e4m3": torch.float8_e4m3fn,
}


def kv_heads_per_rank(cfg: Any, tp_size: int) -> int:
    """When tp exceeds the KV head count, each rank holds one replicated head."""
    total = getattr(cfg, "num_key_value_heads", cfg.num_attention_heads)
    return max(1, total // tp_size)


def head_dim_of(cfg: Any) -> int:
    return getattr(cfg, "head_dim", None) or cfg.hidden_size // cfg.num_attention_heads


def bytes_per_elem(dtype: torch.dtype) -> int:
    return torch.finfo(dtype).bits // 8
