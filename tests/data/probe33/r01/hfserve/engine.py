"""Engine bootstrap: builds the device cache and its CPU offload copy."""

from .config import CacheConfig
from .offload import OffloadedCacheCopy
from .static_cache import StaticCache


def build_caches(config=None, device="cuda", host_device=None):
    """Return (device_cache, host_copy)."""
    config = config or CacheConfig()
    if host_device is None:
        host_device = "meta" if str(device) == "meta" else "cpu"
    device_cache = StaticCache(config, device=device)
    host_copy = OffloadedCacheCopy(config, device_cache, device=host_device)
    return device_cache, host_copy
