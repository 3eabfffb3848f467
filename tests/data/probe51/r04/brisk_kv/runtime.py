"""Startup wiring for the cache tiers."""
from __future__ import annotations

from .offload import HostInt8Mirror
from .pool import Int8TokenPool
from .settings import CacheSettings


def make_kv_stack(hf: dict, opts, device: str = "cuda", host_device: str = "cpu"):
    settings = CacheSettings(hf, tp_size=opts.tp_size, quant_group=opts.kv_quant_group,
                             gpu_mem_fraction=opts.mem_fraction_static)
    gpu = Int8TokenPool(settings, free_bytes=opts.free_gpu_bytes, device=device)
    host = HostInt8Mirror(gpu, host_tokens=opts.host_tokens, device=host_device)
    return gpu, host
