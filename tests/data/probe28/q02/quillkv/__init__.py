from .spec import CacheSpec
from .layer_cache import Fp8LayerCache
from .spill import SpillRegion
from .engine_setup import init_kv_storage
