"""Bring up the two KV tiers from a checkpoint config and server args."""
from __future__ import annotations

from .config import ModelView
from .kv_device import WindowedKVPool
from .kv_host import WindowedHostMirror


def start_cache(hf_config: dict, server_args, device: str = "cuda",
                host_device: str = "cpu"):
    view = ModelView(hf_config, tp_size=server_args.tp_size)
    gpu = WindowedKVPool(
        view,
        max_tokens=server_args.max_total_tokens,
        max_running=server_args.max_running_requests,
        kv_cache_dtype=server_args.kv_cache_dtype,
        device=device,
    )
    ratio = server_args.hicache_ratio
    host = WindowedHostMirror(
        view,
        host_tokens=int(gpu.full_slots * ratio),
        host_local_tokens=int(gpu.local_slots * ratio),
        kv_cache_dtype=server_args.kv_cache_dtype,
        device=host_device,
        pin_memory=host_device == "cpu",
    )
    return gpu, host
