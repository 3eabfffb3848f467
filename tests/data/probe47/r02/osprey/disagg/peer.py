"""KV pool on the decode instance that receives pages pushed by prefill."""
from __future__ import annotations

from enum import Enum
from typing import Any, Mapping

import torch


class PeerRole(str, Enum):
    PREFILL = "prefill"
    DECODE = "decode"


def _local_kv_heads(cfg: Mapping[str, Any], tp_size: int) -> int:
    heads = cfg.get("num_kv_heads") or cfg["num_attention_heads"]
    return max(1, heads // tp_size)


class DecodeReceivePool:
    """Receives transferred pages; buffers are registered with the transfer engine."""

    role = PeerRole.DECODE

    def __init__(self, cfg: Mapping[str, Any], *, tp_size: int, num_slots: int,
                 dtype: torch.dtype, page_size: int = 1, device: str = "cuda", **_unused):
        self.num_slots = num_slots
        self.page_size = page_size
        self.dtype = dtype
        self.heads = _local_kv_heads(cfg, tp_size)
        self.head_dim = cfg.get("head_dim") or cfg["hidden_size"] // cfg["num_attention_heads"]
        depth = cfg["num_hidden_layers"]
        shape = (num_slots + page_size, self.heads, self.head_dim)
        self.k_buffer = [torch.zeros(shape, dtype=dtype, device=device) for _ in range(depth)]
        self.v_buffer = [torch.zeros(shape, dtype=dtype, device=device) for _ in range(depth)]

    def item_lens(self) -> list[int]:
        return [t[0].nbytes * self.page_size for t in self.k_buffer + self.v_buffer]
