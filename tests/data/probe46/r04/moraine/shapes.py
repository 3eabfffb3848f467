"""Layout records shared by the device pool and the offload tier."""
from __future__ import annotations

import math
from typing import Any, Mapping, NamedTuple

import torch


class TierShape(NamedTuple):
    """Geometry of one group of layers (all global or all sliding)."""

    num_layers: int
    num_blocks: int
    block_tokens: int
    kv_heads: int
    head_dim: int
    dtype: torch.dtype

    def block_numel(self) -> int:
        return math.prod((2, self.block_tokens, self.kv_heads, self.head_dim))

    def block_bytes(self) -> int:
        return self.block_numel() * self.dtype.itemsize


class LayerSplit(NamedTuple):
    global_ids: tuple[int, ...]
    local_ids: tuple[int, ...]


def split_from_pattern(hf: Mapping[str, Any]) -> LayerSplit:
    """Every ``sliding_window_pattern``-th layer attends globally."""
    pattern = hf.get("sliding_window_pattern", 6)
    ids = range(hf["num_hidden_layers"])
    return LayerSplit(tuple(i for i in ids if (i + 1) % pattern == 0),
                      tuple(i for i in ids if (i + 1) % pattern != 0))


def split_from_types(hf: Mapping[str, Any]) -> LayerSplit:
    """Newer configs spell the split out explicitly in ``layer_types``."""
    types = hf.get("layer_types")
    if types is None:
        return split_from_pattern(hf)
    return LayerSplit(tuple(i for i, t in enumerate(types) if t == "full_attention"),
                      tuple(i for i, t in enumerate(types) if t == "sliding_attention"))
