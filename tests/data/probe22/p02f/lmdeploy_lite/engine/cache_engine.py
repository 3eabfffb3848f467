"""CacheEngine: owns the device-side paged kv cache (one tuple per layer)."""
from typing import List, Tuple

import torch

from ..config import CacheConfig, ModelConfig

KVCaches = List[Tuple[torch.Tensor, ...]]


class CacheEngine:

    def __init__(self, cache_config: CacheConfig, model_config: ModelConfig,
                 device: str = "cuda"):
        self.cache_config = cache_config
        self.model_config = model_config
        self.block_size = cache_config.block_size
        self.num_layers = model_config.num_layers
        self.num_heads = model_config.num_key_value_heads
        self.cache_quant = cache_config.quant_policy
        if self.cache_quant in (4, 8):
            self.kv_cache_dtype = torch.uint8 if self.cache_quant == 4 else torch.int8
        else:
            self.kv_cache_dtype = model_config.dtype
        self.local_gpu_cache = self.allocate_gpu_cache(device)

    @staticmethod
    def _get_key_block_shape_impl(model_config: ModelConfig, block_size: int,
                                  quant_policy: int = 0):
        head_size = model_config.k_head_dim
        if quant_policy == 4:  # pack two int4 into one uint8
            head_size //= 2
        return (block_size, model_config.num_key_value_heads, head_size)

    @staticmethod
    def _get_value_block_shape_impl(model_config: ModelConfig, block_size: int,
                                    quant_policy: int = 0):
        head_size = model_config.v_head_dim
        if quant_policy == 4:
            head_size //= 2
        return (block_size, model_config.num_key_value_heads, head_size)

    def get_quant_cache_descs(self):
        if self.cache_quant == 0:
            return []
        shape = (self.block_size, self.num_heads, 2)
        return [shape, shape]

    def allocate_gpu_cache(self, device) -> KVCaches:
        num_blocks = self.cache_config.num_gpu_blocks
        k_shape = self._get_key_block_shape_impl(self.model_config, self.block_size,
                                                 self.cache_quant)
        v_shape = self._get_value_block_shape_impl(self.model_config, self.block_size,
                                                   self.cache_quant)
        caches = []
        for _ in range(self.num_layers):
            layer = [torch.empty((num_blocks, ) + k_shape, dtype=self.kv_cache_dtype,
                                 device=device),
                     torch.empty((num_blocks, ) + v_shape, dtype=self.kv_cache_dtype,
                                 device=device)]
            for desc in self.get_quant_cache_descs():
                layer.append(torch.empty((num_blocks, ) + desc,
                                         dtype=self.model_config.dtype, device=device))
            caches.append(tuple(layer))
        return caches

    @classmethod
    def get_cache_block_size(cls, block_size: int, model_config: ModelConfig,
                             quant_policy: int = 0) -> int:
        def _nbytes(shape, dtype):
            n = 1
            for s in shape:
                n *= s
            return n * torch.empty((), dtype=dtype, device="meta").element_size()

        kv_dtype = model_config.dtype if quant_policy == 0 else torch.int8
        k = _nbytes(cls._get_key_block_shape_impl(model_config, block_size, quant_policy),
                    kv_dtype)
        v = _nbytes(cls._get_value_block_shape_impl(model_config, block_size, quant_policy),
                    kv_dtype)
        q = 0
        if quant_policy:
            q = 2 * _nbytes((block_size, model_config.num_key_value_heads, 2),
                            model_config.dtype)
        return (k + v + q) * model_config.num_layers
