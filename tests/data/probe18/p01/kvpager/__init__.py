from .spec import CacheSpec
from .gpu_store import PagedKVStore
from .swap import SwapSpace
from .engine import build_cache
