"""Host-side swap cache. Blocks evicted from the gpu are parked here."""
import torch

from ..config import CacheConfig, ModelConfig


class HostCacheEngine:

    def __init__(self, cache_config: CacheConfig, model_config: ModelConfig,
                 kv_cache_dtype: torch.dtype, device: str = "cpu"):
        self.block_size = cache_config.block_size
        self.num_blocks = cache_config.num_cpu_blocks
        self.quant_policy = cache_config.quant_policy
        self.num_layers = model_config.num_layers
        self.num_heads = model_config.num_key_value_heads
        self.head_dim = model_config.head_dim
        self.k_head_dim = model_config.k_head_dim
        self.v_head_dim = model_config.v_head_dim
        self.kv_cache_dtype = kv_cache_dtype
        self.scale_dtype = model_config.dtype
        self.pin_memory = device == "cpu" and torch.cuda.is_available()
        self.local_cpu_cache = self.allocate_cpu_cache(device)

    def _block_shape(self, head_dim):
        head_dim = head_dim // 2 if self.quant_policy == 4 else head_dim
        return (self.num_blocks, self.block_size, self.num_heads, head_dim)

    def allocate_cpu_cache(self, device):
        caches = []
        for _ in range(self.num_layers):
            key = torch.empty(self._block_shape(self.k_head_dim), dtype=self.kv_cache_dtype,
                              device=device, pin_memory=self.pin_memory)
            value = torch.empty(self._block_shape(self.v_head_dim), dtype=self.kv_cache_dtype,
                                device=device, pin_memory=self.pin_memory)
            layer = [key, value]
            if self.quant_policy:
                sz_shape = (self.num_blocks, self.block_size, self.num_heads, 2)
                layer += [torch.empty(sz_shape, dtype=self.scale_dtype, device=device,
                                      pin_memory=self.pin_memory) for _ in range(2)]
            caches.append(tuple(layer))
        return caches

    @torch.inference_mode()
    def swap_out(self, gpu_cache, src_to_dst: dict):
        for gpu_layer, cpu_layer in zip(gpu_cache, self.local_cpu_cache):
            for g, c in zip(gpu_layer, cpu_layer):
                for src, dst in src_to_dst.items():
                    c[dst].copy_(g[src], non_blocking=True)
