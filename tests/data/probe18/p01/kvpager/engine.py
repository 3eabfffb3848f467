from .gpu_store import PagedKVStore
from .spec import CacheSpec
from .swap import SwapSpace


def build_cache(spec: CacheSpec = None, gpu_bytes: int = 8 << 30,
                swap_bytes: int = 4 << 30, device: str = "cuda"):
    spec = spec or CacheSpec()
    per_block = spec.bytes_per_block()
    store = PagedKVStore(spec, gpu_bytes // per_block, device=device)
    swap = SwapSpace(store, max(1, swap_bytes // per_block))
    return store, swap
