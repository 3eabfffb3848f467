"""Statically shaped KV cache, allocated once so the decode step can be CUDA-graphed."""

import torch

from .config import CacheConfig


class StaticCache:
    """Per-layer key/value tensors of shape (batch, kv_heads, max_cache_len, head_dim)."""

    def __init__(self, config: CacheConfig, device="cuda"):
        self.max_batch_size = config.max_batch_size
        self.max_cache_len = config.max_cache_len
        self.num_layers = config.num_hidden_layers
        self.num_key_value_heads = config.num_key_value_heads
        self.head_dim = config.head_dim
        self.dtype = config.dtype
        self.device = torch.device(device)

        cache_shape = (self.max_batch_size, self.num_key_value_heads, self.max_cache_len, self.head_dim)
        self.key_cache = []
        self.value_cache = []
        for _ in range(self.num_layers):
            self.key_cache.append(torch.zeros(cache_shape, dtype=self.dtype, device=self.device))
            self.value_cache.append(torch.zeros(cache_shape, dtype=self.dtype, device=self.device))

    def update(self, key_states, value_states, layer_idx, cache_position):
        """Write new states at cache_position and return the full layer cache."""
        k_out = self.key_cache[layer_idx]
        v_out = self.value_cache[layer_idx]
        k_out.index_copy_(2, cache_position, key_states)
        v_out.index_copy_(2, cache_position, value_states)
        return k_out, v_out

    def reset(self):
        for layer_idx in range(self.num_layers):
            self.key_cache[layer_idx].zero_()
            self.value_cache[layer_idx].zero_()
