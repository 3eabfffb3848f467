"""Device-side paged KV cache."""
from typing import Dict, List

import torch

from .config import CacheConfig, ModelConfig


class CacheEngine:
    """Owns the per-layer KV blocks on the accelerator.

    Per layer: key/value [num_gpu_blocks, block_size, num_heads, head_size]; when
    quant_policy is 4 or 8 an extra [num_gpu_blocks, block_size, num_heads, 2]
    tensor holds (scale, zero) for K and for V.
    """

    def __init__(self, cache_config: CacheConfig, model_config: ModelConfig,
                 world_size: int = 1, device: str = "cuda"):
        if model_config.num_key_value_heads % world_size:
            raise ValueError("num_key_value_heads must be divisible by world_size")
        self.cache_config = cache_config
        self.model_config = model_config
        self.block_size = cache_config.block_size
        self.num_layers = model_config.num_layers
        self.num_gpu_blocks = cache_config.num_gpu_blocks
        self.num_heads = model_config.num_key_value_heads // world_size
        self.head_size = model_config.head_dim
        self.kv_cache_dtype = self._get_kv_cache_dtype()

        self.key_cache: List[torch.Tensor] = []
        self.value_cache: List[torch.Tensor] = []
        self.key_scale_zero: List[torch.Tensor] = []
        self.value_scale_zero: List[torch.Tensor] = []
        self._allocate_gpu_cache(device)

    def _get_kv_cache_dtype(self) -> torch.dtype:
        if self.cache_config.quant_policy == 8:
            return torch.int8
        if self.cache_config.quant_policy == 4:
            return torch.uint8
        return self.model_config.dtype

    def get_key_block_shape(self):
        head_size = self.head_size
        if self.cache_config.quant_policy == 4:
            head_size //= 2
        return (self.block_size, self.num_heads, head_size)

    def get_value_block_shape(self):
        return self.get_key_block_shape()

    def get_quant_block_shape(self):
        # asymmetric quantisation: (scale, zero) per token and head
        return (self.block_size, self.num_heads, 2)

    def _allocate_gpu_cache(self, device):
        n = self.num_gpu_blocks
        for _ in range(self.num_layers):
            self.key_cache.append(torch.empty((n, *self.get_key_block_shape()),
                                              dtype=self.kv_cache_dtype, device=device))
            self.value_cache.append(torch.empty((n, *self.get_value_block_shape()),
                                                dtype=self.kv_cache_dtype, device=device))
            if self.cache_config.quant_policy:
                self.key_scale_zero.append(torch.zeros((n, *self.get_quant_block_shape()),
                                                       dtype=self.model_config.dtype, device=device))
                self.value_scale_zero.append(torch.zeros((n, *self.get_quant_block_shape()),
                                                         dtype=self.model_config.dtype, device=device))

    @property
    def num_gpu_tokens(self) -> int:
        return self.num_gpu_blocks * self.block_size

    def swap_out(self, src_to_dst: Dict[int, int], swap_space) -> None:
        """Copy device blocks to host swap slots."""
        for layer in range(self.num_layers):
            for src, dst in src_to_dst.items():
                swap_space.key_cache[layer][dst].copy_(self.key_cache[layer][src])
                swap_space.value_cache[layer][dst].copy_(self.value_cache[layer][src])

    def swap_in(self, src_to_dst: Dict[int, int], swap_space) -> None:
        for layer in range(self.num_layers):
            for src, dst in src_to_dst.items():
                self.key_cache[layer][dst].copy_(swap_space.key_cache[layer][src])
                self.value_cache[layer][dst].copy_(swap_space.value_cache[layer][src])
