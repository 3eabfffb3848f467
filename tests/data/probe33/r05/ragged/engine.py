"""Inference engine set-up for the ragged batching path."""

from .config import KVCacheConfig
from .host_mirror import HostKVMirror
from .kv_cache import BlockedKVCache


def build_caches(config=None, device="cuda", host_device=None):
    """Return (gpu_cache, host_mirror)."""
    config = config or KVCacheConfig()
    if host_device is None:
        host_device = "meta" if str(device) == "meta" else "cpu"
    gpu_cache = BlockedKVCache(config, config.num_blocks, device=device)
    mirror = HostKVMirror(config, gpu_cache, config.num_host_blocks, device=host_device)
    return gpu_cache, mirror
