import torch
from base import LayeredCache


class SelfAttnKVPool(LayeredCache):
    def __init__(self, size: int, num_kv_heads: int, head_dim: int, num_layers: int,
                 dtype: torch.dtype, device: str = "cuda"):
        self.size = size
        shape = (size + 1, num_kv_heads, head_dim)
        self._register({"key_cache": shape, "value_cache": shape}, num_layers, dtype, device)


class CrossAttnKVPool(LayeredCache):
    """Encoder (vision) states projected to K/V once per request, read by the cross-attention
    layers only."""

    def __init__(self, size: int, num_kv_heads: int, head_dim: int, num_layers: int,
                 dtype: torch.dtype, device: str = "cuda"):
        self.size = size
        shape = (size + 1, num_kv_heads, head_dim)
        self._register({"key_cache": shape, "value_cache": shape}, num_layers, dtype, device)
