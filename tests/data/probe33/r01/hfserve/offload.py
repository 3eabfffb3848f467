"""CPU copy of the static cache so idle layers can be parked off the accelerator."""

import torch

from .config import CacheConfig
from .static_cache import StaticCache


class OffloadedCacheCopy:
    """Host-side key/value cache with the same per-layer geometry as the device cache."""

    def __init__(self, config: CacheConfig, device_pool: StaticCache, device="cpu"):
        self.device_pool = device_pool
        self.device = torch.device(device)
        pin = self.device.type == "cpu" and torch.cuda.is_available()

        shape = (config.max_batch_size, config.num_key_value_heads, config.max_cache_len, config.head_dim)
        self.key_cache = [
            torch.zeros(shape, dtype=config.dtype, device=self.device, pin_memory=pin)
            for _ in range(config.num_hidden_layers)
        ]
        self.value_cache = [
            torch.zeros(shape, dtype=config.dtype, device=self.device, pin_memory=pin)
            for _ in range(config.num_hidden_layers)
        ]

    def offload_layer(self, layer_idx, batch_indices):
        """Copy the selected batch rows of one layer from device to host."""
        src_k = self.device_pool.key_cache[layer_idx]
        src_v = self.device_pool.value_cache[layer_idx]
        self.key_cache[layer_idx][batch_indices] = src_k[batch_indices].to(self.device, non_blocking=True)
        self.value_cache[layer_idx][batch_indices] = src_v[batch_indices].to(self.device, non_blocking=True)

    def prefetch_layer(self, layer_idx, batch_indices):
        """Bring the selected batch rows of one layer back onto the device."""
        dst_k = self.device_pool.key_cache[layer_idx]
        dst_v = self.device_pool.value_cache[layer_idx]
        dst_k[batch_indices] = self.key_cache[layer_idx][batch_indices].to(dst_k.device, non_blocking=True)
        dst_v[batch_indices] = self.value_cache[layer_idx][batch_indices].to(dst_v.device, non_blocking=True)
