from .config import DEEPSEEK_V3, RUNTIME
from .gpu_pool import LatentCachePool
from .host_pool import LatentHostCache


def build_hierarchical_cache(hf_config=DEEPSEEK_V3, runtime=RUNTIME, device="cuda", host_device="cpu"):
    pool = LatentCachePool(hf_config, runtime, device=device)
    host = LatentHostCache(pool, hf_config, runtime["hicache_ratio"], device=host_device)
    return pool, host
