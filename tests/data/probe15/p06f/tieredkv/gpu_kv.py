import torch

from tieredkv.config import ServingConfig


class GpuKV:
    def __init__(self, cfg: ServingConfig):
        m, c = cfg.model, cfg.cache
        kv_dtype = torch.float8_e4m3fn if c.quantized else c.dtype
        self.kv = [torch.empty((c.max_tokens, 2, m.num_kv_heads, m.head_dim), dtype=kv_dtype, device="cuda")
                   for _ in range(m.num_layers)]
        if c.quantized:
            self.kv_scale = [torch.empty((c.max_tokens, 2, m.num_kv_heads), dtype=torch.float32, device="cuda")
                             for _ in range(m.num_layers)]
