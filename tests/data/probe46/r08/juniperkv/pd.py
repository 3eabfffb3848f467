"""Prefill/decode pair construction."""
from __future__ import annotations

from typing import Any

from .decode_cache import DecodeKVCache
from .geometry import attention_layer_ids, geometry_for
from .prefill_cache import AsymKVCache


def launch_pd_pair(card: Any, tp_size: int, prefill_blocks: int, decode_blocks: int,
                   device: str = "cuda", **decode_overrides: Any) -> tuple[AsymKVCache, DecodeKVCache]:
    """Both sides must agree byte-for-byte per token so token rows can be copied raw."""
    layers = attention_layer_ids(card)
    prefill = AsymKVCache(geometry_for(card, tp_size, num_blocks=prefill_blocks), layers, device)
    decode_geom = geometry_for(card, tp_size, num_blocks=decode_blocks, **decode_overrides)
    decode = DecodeKVCache(decode_geom, layers, device)
    return prefill, decode
