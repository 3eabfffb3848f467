from .config import CacheConfig
from .gpu_slab import SlotKVCache
from .host_slab import HostSlotMirror


def build_kv_caches(cfg: CacheConfig = None, device="cuda", host_device="cpu"):
    """Create the device slab and its host mirror for one worker."""
    cfg = cfg or CacheConfig()
    gpu = SlotKVCache(cfg, device=device)
    host = HostSlotMirror(gpu, cfg.host_ratio, device=host_device)
    return gpu, host
