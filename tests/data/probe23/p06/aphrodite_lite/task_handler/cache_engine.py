from typing import List

import torch

from aphrodite_lite.quantization.kv_quant import (KV_STORAGE_DTYPE,
                                                  packed_head_dim,
                                                  scale_zero_dim)


class CacheEngine:
    """Owns the quantised GPU KV cache: per layer one packed data tensor and
    one fp16 (scale, zero) tensor, both [2, blocks, block_size, heads, *]."""

    def __init__(self, cache_config, model_config, parallel_config, device):
        self.block_size = cache_config.block_size
        self.num_gpu_blocks = cache_config.num_gpu_blocks
        self.num_layers = model_config.num_hidden_layers
        self.num_kv_heads = max(1, model_config.num_key_value_heads //
                                parallel_config.tensor_parallel_size)
        self.head_size = model_config.head_dim
        self.cache_dtype = cache_config.cache_dtype
        self.group_size = cache_config.kv_quant_group_size
        self.device = device
        self.kv_data: List[torch.Tensor] = []
        self.kv_scales: List[torch.Tensor] = []
        self._allocate()

    def _allocate(self):
        base = (2, self.num_gpu_blocks, self.block_size, self.num_kv_heads)
        data_shape = base + (packed_head_dim(self.head_size, self.cache_dtype),)
        scale_shape = base + (scale_zero_dim(self.head_size, self.group_size),)
        for _ in range(self.num_layers):
            self.kv_data.append(torch.zeros(
                data_shape, dtype=KV_STORAGE_DTYPE[self.cache_dtype],
                device=self.device))
            self.kv_scales.append(torch.zeros(
                scale_shape, dtype=torch.float16, device=self.device))

    @property
    def gpu_cache(self):
        return list(zip(self.kv_data, self.kv_scales))
