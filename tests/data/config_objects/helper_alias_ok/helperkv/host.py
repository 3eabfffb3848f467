import torch
from helperkv.config import KVCacheSpec
from helperkv.device import SpecKVPool

class SpecKVPoolHost:
    def __init__(self, spec: KVCacheSpec, device_pool: SpecKVPool, host_size: int):
        self.spec = spec
        self.device_pool = device_pool
        self.size = host_size
        self.k_buffer = torch.empty((spec.num_layers, host_size, spec.num_kv_heads, spec.head_dim), dtype=spec.cache_dtype)
        self.v_buffer = torch.empty((spec.num_layers, host_size, spec.num_kv_heads, spec.head_dim), dtype=spec.cache_dtype)
        if spec.use_fp8_scales:
            self.k_scale_buffer = torch.empty((spec.num_layers, host_size, spec.num_kv_heads), dtype=torch.float32)
