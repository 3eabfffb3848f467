import torch

from .settings import KV_STORAGE, SCALE_DTYPE


class QuantKVPool:
    def __init__(self, s):
        self.tokens = s.gpu_tokens
        self.store_dtype = KV_STORAGE[s.kv_cache_dtype]
        self.quantized = s.quantized
        data_shape = (self.tokens, s.num_kv_heads, s.head_dim)
        self.k_data = [torch.empty(data_shape, dtype=self.store_dtype, device=s.device)
                       for _ in range(s.num_layers)]
        self.v_data = [torch.empty(data_shape, dtype=self.store_dtype, device=s.device)
                       for _ in range(s.num_layers)]
        self.k_scale = self.v_scale = None
        if self.quantized:
            groups = s.head_dim // s.kv_scale_group
            scale_shape = (self.tokens, s.num_kv_heads, groups)
            self.k_scale = [torch.ones(scale_shape, dtype=SCALE_DTYPE, device=s.device)
                            for _ in range(s.num_layers)]
            self.v_scale = [torch.ones(scale_shape, dtype=SCALE_DTYPE, device=s.device)
                            for _ in range(s.num_layers)]

    def layer(self, i):
        if self.quantized:
            return self.k_data[i], self.v_data[i], self.k_scale[i], self.v_scale[i]
        return self.k_data[i], self.v_data[i], None, None
