"""CacheEngine class for managing the KV cache."""
from typing import List

import torch

from ..attention.backends import get_attn_backend
from ..common.config import CacheConfig, ModelConfig, ParallelConfig
from ..common.utils import STR_DTYPE_TO_TORCH_DTYPE, get_dtype_size


class CacheEngine:

    def __init__(self, cache_config: CacheConfig, model_config: ModelConfig,
                 parallel_config: ParallelConfig, device: str = "cuda",
                 swap_device: str = "cpu"):
        self.cache_config = cache_config
        self.model_config = model_config
        self.parallel_config = parallel_config

        self.head_size = model_config.get_head_size()
        self.num_layers = model_config.get_num_layers(parallel_config)
        self.num_kv_heads = model_config.get_num_kv_heads(parallel_config)
        self.block_size = cache_config.block_size
        self.num_gpu_blocks = cache_config.num_gpu_blocks
        self.num_cpu_blocks = cache_config.num_cpu_blocks

        if cache_config.cache_dtype == "auto":
            self.dtype = STR_DTYPE_TO_TORCH_DTYPE[model_config.dtype]
        else:
            self.dtype = STR_DTYPE_TO_TORCH_DTYPE[cache_config.cache_dtype]

        self.attn_backend = get_attn_backend()
        self.gpu_cache = self._allocate_kv_cache(self.num_gpu_blocks, device)

        from .swap_cache import CpuSwapCache
        self.swap = CpuSwapCache.from_engine(self, self.num_cpu_blocks, device=swap_device)

    def _allocate_kv_cache(self, num_blocks: int, device: str) -> List[torch.Tensor]:
        kv_cache_shape = self.attn_backend.get_kv_cache_shape(
            num_blocks, self.block_size, self.num_kv_heads, self.head_size)
        return [torch.empty(kv_cache_shape, dtype=self.dtype, device=device)
                for _ in range(self.num_layers)]

    @staticmethod
    def get_cache_block_size(cache_config: CacheConfig, model_config: ModelConfig,
                             parallel_config: ParallelConfig) -> int:
        head_size = model_config.get_head_size()
        num_heads = model_config.get_num_kv_heads(parallel_config)
        num_layers = model_config.get_num_layers(parallel_config)
        key_cache_block = cache_config.block_size * num_heads * head_size
        total = num_layers * 2 * key_cache_block
        if cache_config.cache_dtype == "auto":
            dtype = STR_DTYPE_TO_TORCH_DTYPE[model_config.dtype]
        else:
            dtype = STR_DTYPE_TO_TORCH_DTYPE[cache_config.cache_dtype]
        return get_dtype_size(dtype) * total
