"""GPU side of the KV cache (one tensor per layer)."""
import torch

from ..config import resolve_cache_dtype


def get_kv_cache_shape(num_blocks, block_size, num_kv_heads, head_size):
    return (2, num_blocks, block_size, num_kv_heads, head_size)


class CacheEngine:
    """Owns the device KV cache and delegates swapping to a backend."""

    def __init__(self, cache_config, model_config, parallel_config, device="cuda", swap_backend=None):
        self.block_size = cache_config.block_size
        self.num_gpu_blocks = cache_config.num_gpu_blocks
        self.head_size = model_config.get_head_size()
        self.num_kv_heads = model_config.get_num_kv_heads(parallel_config)
        self.num_layers = model_config.get_num_layers(parallel_config)
        self.dtype = resolve_cache_dtype(cache_config, model_config)
        self.kv_cache = self._allocate_kv_cache(self.num_gpu_blocks, device)
        self.swap_backend = swap_backend

    def _allocate_kv_cache(self, num_blocks, device):
        shape = get_kv_cache_shape(num_blocks, self.block_size, self.num_kv_heads, self.head_size)
        return [torch.zeros(shape, dtype=self.dtype, device=device) for _ in range(self.num_layers)]

    def swap_out(self, src_to_dst):
        self.swap_backend.store(self.kv_cache, src_to_dst)

    def swap_in(self, src_to_dst):
        self.swap_backend.load(self.kv_cache, src_to_dst)
