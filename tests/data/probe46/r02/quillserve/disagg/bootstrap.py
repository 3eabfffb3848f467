"""Builds matching prefill and decode pools for a PD deployment."""
from __future__ import annotations

from typing import Any, Mapping

from ..arch import MLAArch
from ..layout import LayoutPlanner
from ..prefill_pool import LatentKVPool
from .decode_pool import LatentDecodePool


def bootstrap_pd_pools(hf: Mapping[str, Any], kv_cache_dtype: str, prefill_slots: int,
                       decode_slots: int, device: str = "cuda") -> tuple[LatentKVPool, LatentDecodePool]:
    arch = MLAArch.from_hf(hf)
    layout = LayoutPlanner.plan(arch, kv_cache_dtype)
    prefill = LatentKVPool(arch, layout, prefill_slots, device)
    decode = LatentDecodePool(arch, kv_cache_dtype, decode_slots, device)
    return prefill, decode
