import torch
from helperkv.config import KVCacheSpec

class SpecKVPool:
    def __init__(self, spec: KVCacheSpec, size: int):
        self.spec = spec
        self.size = size
        self._create_buffers()

    def _create_buffers(self):
        s = self.spec
        self.k_buffer = [torch.empty((self.size, s.num_kv_heads, s.head_dim), dtype=s.cache_dtype)
                         for _ in range(s.num_layers)]
        self.v_buffer = [torch.empty((self.size, s.num_kv_heads, s.head_dim), dtype=s.cache_dtype)
                         for _ in range(s.num_layers)]
        if self.spec.use_fp8_scales:
            self.k_scale_buffer = [torch.empty((self.size, s.num_kv_heads), dtype=torch.float32)
                                   for _ in range(s.num_layers)]
