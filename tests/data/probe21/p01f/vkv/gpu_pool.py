import torch

from .config import CacheConfig, ModelConfig
from .dtypes import STR_DTYPE_TO_TORCH_DTYPE, resolve_cache_dtype


class GPUBlockPool:
    """Paged KV blocks resident on the accelerator, one tensor per layer."""

    def __init__(self, cache_config: CacheConfig, model_config: ModelConfig, device="cuda"):
        self.block_size = cache_config.block_size
        self.num_blocks = cache_config.num_gpu_blocks
        self.num_layers = model_config.num_hidden_layers
        self.num_kv_heads = model_config.num_key_value_heads
        self.head_size = model_config.head_dim
        self.dtype = resolve_cache_dtype(cache_config.cache_dtype, model_config.dtype)
        self.scale_dtype = STR_DTYPE_TO_TORCH_DTYPE[cache_config.scale_dtype]
        self.device = device
        self.kv_cache = [
            torch.empty(self._kv_shape(), dtype=self.dtype, device=device)
            for _ in range(self.num_layers)
        ]
        self.kv_scales = [
            torch.ones(self._scale_shape(), dtype=self.scale_dtype, device=device)
            for _ in range(self.num_layers)
        ]

    def _kv_shape(self):
        return (2, self.num_blocks, self.block_size, self.num_kv_heads, self.head_size)

    def _scale_shape(self):
        return (2, self.num_blocks, self.block_size, self.num_kv_heads)

    def copy_blocks(self, src_to_dsts):
        for layer in range(self.num_layers):
            for src, dst in src_to_dsts:
                self.kv_cache[layer][:, dst].copy_(self.kv_cache[layer][:, src])
                self.kv_scales[layer][:, dst].copy_(self.kv_scales[layer][:, src])
