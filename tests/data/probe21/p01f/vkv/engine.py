from .config import CacheConfig, ModelConfig
from .gpu_pool import GPUBlockPool
from .swap import CPUSwapSpace

GiB = 1 << 30


class CacheEngine:
    def __init__(self, cache_config: CacheConfig, model_config: ModelConfig, device="cuda"):
        self.cache_config = cache_config
        self.model_config = model_config
        self.gpu_pool = GPUBlockPool(cache_config, model_config, device=device)
        host = "meta" if device == "meta" else "cpu"
        swap_bytes = int(cache_config.swap_space_gib * GiB)
        self.cpu_swap = CPUSwapSpace(self.gpu_pool, swap_bytes, device=host)

    def swap_in(self, mapping):
        self.cpu_swap.swap_in(self.gpu_pool, mapping)

    def swap_out(self, mapping):
        self.cpu_swap.swap_out(self.gpu_pool, mapping)

    def copy(self, src_to_dsts):
        self.gpu_pool.copy_blocks(src_to_dsts)
