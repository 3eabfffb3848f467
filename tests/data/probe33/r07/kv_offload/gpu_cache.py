"""GPU paged KV cache: one (2, num_blocks, block_size, num_kv_heads, head_size) tensor per layer."""

import torch

from .config import CacheConfig, ModelConfig, resolve_kv_cache_dtype


class GPUKVCache:
    def __init__(self, model_config: ModelConfig, cache_config: CacheConfig, device="cuda"):
        self.num_layers = model_config.num_layers
        self.num_blocks = cache_config.num_gpu_blocks
        self.block_size = cache_config.block_size
        self.dtype = resolve_kv_cache_dtype(cache_config.cache_dtype, model_config.dtype)
        shape = (2, self.num_blocks, self.block_size, model_config.num_kv_heads, model_config.head_size)
        self.kv_caches = [torch.zeros(shape, dtype=self.dtype, device=device) for _ in range(self.num_layers)]
