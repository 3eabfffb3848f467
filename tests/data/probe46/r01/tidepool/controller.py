"""Wires the GPU tier and the host arena for hierarchical caching."""
from __future__ import annotations

from typing import Any

from .gpu_tier import GpuKVTier
from .host_tier import HostKVArena
from .interfaces import KVTier
from .spec import AttentionSpec


def build_hicache(hf: Any, server: Any) -> tuple[KVTier, KVTier]:
    """Create the device tier and its host mirror from server arguments."""
    spec = AttentionSpec(hf, tp_size=getattr(server, "tp_size", 1),
                         pp_rank=getattr(server, "pp_rank", 0),
                         pp_size=getattr(server, "pp_size", 1))
    dtype = spec.kv_dtype(getattr(server, "kv_cache_dtype", "auto"))
    gpu = GpuKVTier(spec, server.max_total_tokens, dtype, server.device)
    ratio = getattr(server, "hicache_ratio", 2.0)
    host = HostKVArena(spec, int(server.max_total_tokens * ratio), dtype,
                       getattr(server, "host_device", "cpu"))
    assert isinstance(gpu, KVTier) and isinstance(host, KVTier)
    return gpu, host
