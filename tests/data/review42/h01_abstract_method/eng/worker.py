from .cache import CPUSwapCache, GPUKVCache
from .config import ModelArch


def init_caches(arch: ModelArch, num_gpu_blocks: int, num_cpu_blocks: int, block_size: int = 16,
                tp_size: int = 1):
    gpu = GPUKVCache(arch, num_gpu_blocks, block_size, tp_size)
    cpu = CPUSwapCache(gpu, num_cpu_blocks)
    return gpu, cpu
