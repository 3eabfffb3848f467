from .kv_params import KVCacheParams
from .paged_manager import paged_cache_cls
from .staging import HostStagingPool


def load_kv_manager(params: KVCacheParams = None, device="cpu", host_device="cpu"):
    params = params or KVCacheParams()
    pool_cls = paged_cache_cls(params.cache_strategy)
    pool = pool_cls(params, device=device)
    staging = HostStagingPool(pool, params.host_staging_tokens, device=host_device)
    return pool, staging
