import torch

from swiftserve.config import (CacheConfig, ModelConfig, ParallelConfig,
                               resolve_cache_dtype)
from swiftserve.worker.gpu_cache import GpuBlockCache
from swiftserve.worker.swap_space import CpuSwapSpace


class CacheEngine:
    """Owns the GPU cache and the CPU swap space for one worker."""

    def __init__(self, cache_config: CacheConfig, model_config: ModelConfig,
                 parallel_config: ParallelConfig, device: str = "cuda",
                 host_device: str = "cpu") -> None:
        self.cache_config = cache_config
        self.head_size = model_config.get_head_size()
        self.num_layers = model_config.get_num_layers(parallel_config)
        self.num_kv_heads = model_config.get_num_kv_heads(parallel_config)
        self.dtype = resolve_cache_dtype(cache_config, model_config)

        self.gpu_cache = GpuBlockCache(
            cache_config.num_gpu_blocks, cache_config.block_size, self.num_layers,
            self.num_kv_heads, self.head_size, self.dtype, device=device)
        self.cpu_cache = CpuSwapSpace(self.gpu_cache, cache_config.num_cpu_blocks,
                                      device=host_device)

    @staticmethod
    def get_cache_block_size(cache_config: CacheConfig, model_config: ModelConfig,
                             parallel_config: ParallelConfig) -> int:
        head_size = model_config.get_head_size()
        num_heads = model_config.get_num_kv_heads(parallel_config)
        num_layers = model_config.get_num_layers(parallel_config)
        dtype = resolve_cache_dtype(cache_config, model_config)
        elem = torch.tensor([], dtype=dtype).element_size()
        return 2 * cache_config.block_size * num_heads * head_size * num_layers * elem
