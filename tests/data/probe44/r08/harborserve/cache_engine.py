from .defaults import load_config
from .kv_tensor import StackedKVCache
from .swap_space import CpuSwapSpace


def init_cache_engine(cfg=None):
    cfg = cfg or load_config()
    gpu_cache = StackedKVCache(cfg)
    swap = CpuSwapSpace(cfg)
    return gpu_cache, swap


class BlockManager:
    """Free-slot bookkeeping for the gpu cache and the swap space."""

    def __init__(self, gpu_cache, swap):
        self.gpu_free = list(range(gpu_cache.slots))
        self.swap_free = list(range(swap.slots))

    def _take(self, pool, n):
        if n > len(pool):
            return None
        out = pool[:n]
        del pool[:n]
        return out

    def alloc_gpu(self, n):
        return self._take(self.gpu_free, n)

    def alloc_swap(self, n):
        return self._take(self.swap_free, n)
