import torch

from plover.config import kv_dtype
from plover.layers import tokens_per_layer


class HybridWindowKVCache:
    """Per-layer K/V tensors; sliding layers are ring buffers sized to the window."""

    def __init__(self, cfg, cache_args, device="cuda"):
        self.cfg = cfg
        self.num_kv_heads = cfg.num_key_value_heads // cache_args.tp_size
        self.head_dim = cfg.head_dim
        name = cfg.torch_dtype if cache_args.kv_cache_dtype == "auto" else cache_args.kv_cache_dtype
        self.dtype = kv_dtype(name)
        self.capacity = tokens_per_layer(cfg, cache_args)
        self.key_cache = []
        self.value_cache = []
        for n in self.capacity:
            shape = (n, self.num_kv_heads, self.head_dim)
            self.key_cache.append(torch.empty(shape, dtype=self.dtype, device=device))
            self.value_cache.append(torch.empty(shape, dtype=self.dtype, device=device))

    def slot(self, layer_id, pos):
        return pos % self.capacity[layer_id]
