"""Bootstraps the prefill-side GPU pool and the matching decode-side pool."""
from __future__ import annotations

from typing import Any, Mapping

from .. import hf as hfcfg
from ..mem.pools import PagedMHAPool
from .registry import peer_pool_factory


def bootstrap_pd(hf: Mapping[str, Any], tp_size: int, prefill_slots: int, decode_slots: int,
                 kv_cache_dtype: str = "auto", page_size: int = 32, **device_kwargs):
    dtype = hfcfg.to_torch_dtype(kv_cache_dtype, hf)
    prefill = PagedMHAPool(hf, tp_size, prefill_slots, dtype, page_size=page_size,
                           device=device_kwargs.get("device", "cuda"))
    make_decode = peer_pool_factory("decode", tp_size=tp_size, dtype=dtype, page_size=page_size)
    decode = make_decode(hfcfg.text_config(hf), num_slots=decode_slots, **device_kwargs)
    return prefill, decode
