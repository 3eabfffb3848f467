"""Device KV pool with fp8 storage and per-token, per-head dequant scales."""
import torch

from .config import KVCacheConfig


class DeviceKVPool:
    """Token-slot KV storage.

    ``k_cache``/``v_cache``: ``[num_layers, capacity, num_kv_heads, head_dim]`` in ``cache_dtype``.
    ``k_scale``/``v_scale``: ``[num_layers, capacity, num_kv_heads]`` in ``scale_dtype``.
    """

    def __init__(self, config: KVCacheConfig, device="cuda"):
        self.config = config
        self.device = device
        self.num_layers = config.num_layers
        self.num_kv_heads = config.num_kv_heads
        self.head_dim = config.head_dim
        self.capacity = config.capacity
        shape = (config.num_layers, config.capacity, config.num_kv_heads, config.head_dim)
        scale_shape = (config.num_layers, config.capacity, config.num_kv_heads)
        self.k_cache = torch.empty(shape, dtype=config.cache_dtype, device=device)
        self.v_cache = torch.empty(shape, dtype=config.cache_dtype, device=device)
        self.k_scale = torch.empty(scale_shape, dtype=config.scale_dtype, device=device)
        self.v_scale = torch.empty(scale_shape, dtype=config.scale_dtype, device=device)

    def write(self, layer, slots, k, v):
        """Quantise ``k``/``v`` ([n, heads, dim], high precision) into ``slots``."""
        for src, cache, scale in ((k, self.k_cache, self.k_scale), (v, self.v_cache, self.v_scale)):
            amax = src.abs().amax(dim=-1).clamp(min=1e-6).to(torch.float32)
            s = amax / torch.finfo(self.config.cache_dtype).max
            scale[layer, slots] = s.to(scale.dtype)
            cache[layer, slots] = (src / s.unsqueeze(-1)).to(cache.dtype)

    def read(self, layer, slots, out_dtype=torch.bfloat16):
        k = self.k_cache[layer, slots].to(out_dtype) * self.k_scale[layer, slots].unsqueeze(-1).to(out_dtype)
        v = self.v_cache[layer, slots].to(out_dtype) * self.v_scale[layer, slots].unsqueeze(-1).to(out_dtype)
        return k, v
