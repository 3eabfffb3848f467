"""Server startup wiring for the KV cache."""
from .config import KVCacheConfig
from .kv_pool import DeviceKVPool
from .offload import HostKVMirror


def build_caches(device="cuda", host_device=None, config=None):
    """Create the device pool and its host mirror; returns ``(kv_pool, host_mirror)``."""
    config = config or KVCacheConfig()
    if host_device is None:
        host_device = "meta" if device == "meta" else "cpu"
    kv_pool = DeviceKVPool(config, device=device)
    host_mirror = HostKVMirror(
        kv_pool,
        num_host_tokens=config.host_capacity,
        cache_dtype=config.cache_dtype,
        scale_dtype=config.scale_dtype,
        device=host_device,
    )
    return kv_pool, host_mirror
