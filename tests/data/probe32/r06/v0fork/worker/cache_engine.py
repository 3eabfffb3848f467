"""Manages the device KV cache for this pipeline stage."""
import torch

from ..config import get_kv_cache_torch_dtype
from .attn_backend import FlashAttentionBackend


class CacheEngine:
    """Allocates one KV tensor per layer owned by this pipeline stage."""

    def __init__(self, cache_config, model_config, parallel_config, device="cuda"):
        self.block_size = cache_config.block_size
        self.num_gpu_blocks = cache_config.num_gpu_blocks
        self.head_size = model_config.head_size
        self.num_kv_heads = model_config.get_num_kv_heads(parallel_config)
        self.layer_range = range(*model_config.get_layers_start_end_indices(parallel_config))
        self.num_attention_layers = len(self.layer_range)
        self.dtype = get_kv_cache_torch_dtype(cache_config.cache_dtype, model_config.dtype)
        self.attn_backend = FlashAttentionBackend
        self.kv_caches = self._allocate_kv_cache(self.num_gpu_blocks, device)

    def _allocate_kv_cache(self, num_blocks, device):
        shape = self.attn_backend.get_kv_cache_shape(num_blocks, self.block_size, self.num_kv_heads, self.head_size)
        return [torch.empty(shape, dtype=self.dtype, device=device) for _ in self.layer_range]

    def copy(self, src_to_dsts):
        for kv in self.kv_caches:
            for src, dst in src_to_dsts.tolist():
                kv[:, dst].copy_(kv[:, src])
