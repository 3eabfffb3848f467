from typing import Optional

from turbinelm.cache.device_engine import DeviceBlockCache
from turbinelm.cache.swap_engine import SwapBlockCache
from turbinelm.messages import EngineCacheOptions
from turbinelm.model_meta import ArchDims


def build_cache_engines(dims: Optional[ArchDims] = None, opts: Optional[EngineCacheOptions] = None,
                        device="cuda", swap_device="cpu"):
    dims = dims or ArchDims()
    opts = opts or EngineCacheOptions()
    gpu = DeviceBlockCache(opts, dims, device=device)
    swap = SwapBlockCache(opts, dims, device=swap_device) if opts.num_cpu_blocks else None
    return gpu, swap
