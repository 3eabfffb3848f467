"""Builds the GPU pool and its host tier from model + runtime config."""
from __future__ import annotations

from typing import Any, Mapping

from .config import ModelArch, RuntimeConfig
from .device_pool import StackedKVPool
from .dtypes import resolve_kv_dtype
from .host_pool import HostArenaPool


def _align(n: int, page: int) -> int:
    return (n // page) * page


def build_hierarchical_cache(hf: Mapping[str, Any], runtime: RuntimeConfig):
    arch = ModelArch.from_hf(hf)
    dtype = resolve_kv_dtype(runtime.kv_cache_dtype, arch.torch_dtype)
    gpu = StackedKVPool(
        num_slots=_align(runtime.max_total_tokens, runtime.page_size),
        depth=arch.depth,
        head_num=arch.kv_heads_per_rank(runtime.tp_size),
        head_dim=arch.head_size,
        dtype=dtype,
        page_size=runtime.page_size,
        device=runtime.device,
    )
    host_tokens = _align(int(gpu.num_slots * runtime.hicache_ratio), runtime.page_size)
    host = HostArenaPool(gpu, host_tokens, device=runtime.host_device,
                         pin_memory=runtime.host_pinned)
    return gpu, host
