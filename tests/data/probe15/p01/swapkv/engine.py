from swapkv.config import CacheConfig, ModelConfig
from swapkv.cpu_cache import CPUSwapCache
from swapkv.gpu_cache import GPUCache


def init_caches(cache_config: CacheConfig, model_config: ModelConfig, num_gpu_blocks: int, num_cpu_blocks: int):
    gpu = GPUCache(cache_config, model_config, num_gpu_blocks)
    cpu = CPUSwapCache(gpu, num_cpu_blocks)
    return gpu, cpu
