"""Server bootstrap."""

from .config import HybridConfig
from .host import make_host_pool
from .pool import HybridKVPool


def build_caches(cfg=None, host_policy="hybrid", host_ratio=2.0, device="cuda", host_device=None):
    """Return (device_pool, host_pool)."""
    cfg = cfg or HybridConfig()
    if host_device is None:
        host_device = "meta" if str(device) == "meta" else "cpu"
    pool = HybridKVPool(cfg, device=device)
    host = make_host_pool(pool, policy=host_policy, ratio=host_ratio, device=host_device)
    return pool, host
