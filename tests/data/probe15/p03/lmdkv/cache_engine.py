import torch

from lmdkv.config import CacheConfig, ModelConfig


class CacheEngine:
    def __init__(self, cache_config: CacheConfig, model_config: ModelConfig):
        self.block_size = cache_config.block_size
        self.quant_policy = cache_config.quant_policy
        kv_dtype = torch.uint8 if self.quant_policy == 8 else model_config.dtype
        shape = (cache_config.num_gpu_blocks, self.block_size,
                 model_config.num_key_value_heads, model_config.head_dim)
        sz_shape = (cache_config.num_gpu_blocks, self.block_size, model_config.num_key_value_heads, 2)
        self.k_caches, self.v_caches = [], []
        self.k_scales_zeros, self.v_scales_zeros = [], []
        for _ in range(model_config.num_layers):
            self.k_caches.append(torch.empty(shape, dtype=kv_dtype, device="cuda"))
            self.v_caches.append(torch.empty(shape, dtype=kv_dtype, device="cuda"))
            if self.quant_policy == 8:
                self.k_scales_zeros.append(torch.empty(sz_shape, dtype=model_config.dtype, device="cuda"))
                self.v_scales_zeros.append(torch.empty(sz_shape, dtype=model_config.dtype, device="cuda"))
