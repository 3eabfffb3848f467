"""GPU side of the paged KV cache."""
from typing import List

import torch

from .utils import get_dtype_size, get_kv_cache_torch_dtype


class GPUBlockCache:
    """Per-layer KV blocks of shape (2, num_blocks, block_size, kv_heads, head_size)."""

    def __init__(self, model_config, cache_config, parallel_config, device="cuda"):
        self.block_size = cache_config.block_size
        self.num_layers = model_config.num_hidden_layers
        self.num_kv_heads = (model_config.num_key_value_heads
                             // parallel_config.tensor_parallel_size)
        self.head_size = model_config.head_size
        self.dtype = get_kv_cache_torch_dtype(cache_config.cache_dtype,
                                              model_config.dtype)
        self.device = device
        self.num_gpu_blocks = cache_config.gpu_kv_budget_bytes // self.get_block_bytes()
        self.kv_caches: List[torch.Tensor] = self._allocate(self.num_gpu_blocks)

    def get_block_bytes(self) -> int:
        key = self.block_size * self.num_kv_heads * self.head_size
        per_layer = 2 * key
        return per_layer * self.num_layers * get_dtype_size(self.dtype)

    def _allocate(self, num_blocks: int) -> List[torch.Tensor]:
        shape = (2, num_blocks, self.block_size, self.num_kv_heads, self.head_size)
        return [torch.zeros(shape, dtype=self.dtype, device=self.device)
                for _ in range(self.num_layers)]

    def copy_blocks(self, src_to_dst: torch.Tensor) -> None:
        for layer_cache in self.kv_caches:
            layer_cache[:, src_to_dst[:, 1]] = layer_cache[:, src_to_dst[:, 0]]
