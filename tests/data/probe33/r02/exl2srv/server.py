"""Server start-up: choose a cache mode from the CLI string and build caches."""

from .cache import QuantCache, SwapCache
from .cache_mode import CacheMode
from .model_config import ModelConfig


def build_caches(cfg=None, cache_mode="q4", batch_size=2, swap_slots=4, device="cuda", host_device=None):
    """Return (device_cache, swap_cache)."""
    cfg = cfg or ModelConfig()
    mode = CacheMode(cache_mode)
    if host_device is None:
        host_device = "meta" if str(device) == "meta" else "cpu"
    cache = QuantCache(cfg, batch_size=batch_size, mode=mode, device=device)
    swap = SwapCache(cfg, num_slots=swap_slots, mode=mode, device=host_device)
    return cache, swap
