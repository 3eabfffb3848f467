"""Model-type registry choosing how to build the cache pools."""
from __future__ import annotations

from .device_pool import HybridDevicePool
from .host_pool import AttnHostPool
from .layout import attn_storage, mamba_storage

_BUILDERS = {}


def builder(model_type: str):
    def deco(fn):
        _BUILDERS[model_type] = fn
        return fn
    return deco


@builder("jamba")
def _build_jamba(cfg, opts, device, host_device):
    attn = attn_storage(cfg, opts.tp_size, opts.kv_cache_dtype, opts.max_total_tokens)
    mamba = mamba_storage(cfg, opts.tp_size, opts.max_running_requests)
    gpu = HybridDevicePool(attn, mamba, device=device)
    host = AttnHostPool(gpu, opts.host_ratio, page_size=opts.page_size, device=host_device)
    return gpu, host


def create_pools(cfg: dict, opts, device: str = "cuda", host_device: str = "cpu"):
    return _BUILDERS[cfg["model_type"]](cfg, opts, device, host_device)
