from .mapping import Mapping
from .kv_cache_manager import KVCacheManager, CacheType
from .secondary import SecondaryKVPool
from .build import create_kv_cache_manager
