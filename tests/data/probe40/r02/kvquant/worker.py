from .config import CacheConfig
from .paged_pool import Int8PagedPool
from .swap import CpuSwapSpace


def build_kv_pools(cfg: CacheConfig = None, device="cuda", pin_memory=True):
    cfg = cfg or CacheConfig()
    gpu = Int8PagedPool(cfg, device=device)
    cpu = CpuSwapSpace(cfg, pin_memory=pin_memory)
    return gpu, cpu
