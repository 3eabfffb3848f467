import torch

from tieredkv.config import ServingConfig
from tieredkv.gpu_kv import GpuKV


class CpuKV:
    def __init__(self, cfg: ServingConfig, gpu: GpuKV):
        m, c = cfg.model, cfg.cache
        kv_dtype = torch.float8_e4m3fn if c.quantized else c.dtype
        self.kv = [torch.empty((c.host_tokens, 2, m.num_kv_heads, m.head_dim), dtype=kv_dtype, pin_memory=True)
                   for _ in range(m.num_layers)]
        if c.quantized:
            self.kv_scale = [torch.empty((c.host_tokens, 2, m.num_kv_heads), dtype=torch.bfloat16, pin_memory=True)
                             for _ in range(m.num_layers)]


def make_tiers(cfg: ServingConfig):
    gpu = GpuKV(cfg)
    return gpu, CpuKV(cfg, gpu)
