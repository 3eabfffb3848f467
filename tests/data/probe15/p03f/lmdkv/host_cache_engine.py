import torch

from lmdkv.cache_engine import CacheEngine
from lmdkv.config import CacheConfig, ModelConfig


class HostCacheEngine:
    def __init__(self, cache_config: CacheConfig, model_config: ModelConfig, gpu_engine: CacheEngine):
        self.block_size = gpu_engine.block_size
        kv_dtype = torch.uint8 if cache_config.quant_policy == 8 else model_config.dtype
        shape = (cache_config.num_cpu_blocks, self.block_size,
                 model_config.num_key_value_heads, model_config.head_dim)
        self.k_caches = [torch.empty(shape, dtype=kv_dtype, pin_memory=True)
                         for _ in range(model_config.num_layers)]
        self.v_caches = [torch.empty(shape, dtype=kv_dtype, pin_memory=True)
                         for _ in range(model_config.num_layers)]
        if cache_config.quant_policy == 8:
            sz_shape = (cache_config.num_cpu_blocks, self.block_size, model_config.num_key_value_heads, 2)
            self.k_scales_zeros = [torch.empty(sz_shape, dtype=model_config.dtype, pin_memory=True)
                                   for _ in range(model_config.num_layers)]
            self.v_scales_zeros = [torch.empty(sz_shape, dtype=model_config.dtype, pin_memory=True)
                                   for _ in range(model_config.num_layers)]
