from .layout import KVLayout
from .device_pool import PagedKVPool
from .tiers import OffloadTier
from .factory import make_kv_store
