"""Runtime entry: builds the device cache and the host tier."""
from .host_tier import make_host_tier
from .layout import merged_config
from .paged_kv_cache import PagedKVCache


def create_kv_state(device="cuda", host_device=None, config=None):
    """Return ``(paged_kv_cache, host_tier)``."""
    cfg = merged_config(config)
    if host_device is None:
        host_device = device if device == "meta" else "cpu"
    return PagedKVCache(cfg, device=device), make_host_tier(cfg, device=host_device)
