import torch

from .config import CacheConfig
from .pools import CpuKVPool, GpuKVPool


def build_pools(cfg: CacheConfig, device="cuda"):
    gpu_dtype = torch.float8_e4m3fn if cfg.fp8_kv_cache else torch.bfloat16
    gpu = GpuKVPool(cfg.max_gpu_tokens, cfg.num_layers, cfg.num_kv_heads, cfg.head_dim, gpu_dtype, device)
    # BUG: the CPU swap pool ignores fp8_kv_cache and stays bfloat16
    cpu = CpuKVPool(cfg.max_cpu_tokens, cfg.num_layers, cfg.num_kv_heads, cfg.head_dim, torch.bfloat16, "cpu")
    return gpu, cpu


if __name__ == "__main__":
    for flag in (False, True):
        g, c = build_pools(CacheConfig(fp8_kv_cache=flag), device="meta")
        print(flag, g.k_buffer[0, 0].numel() * g.k_buffer.element_size(), c.k_buffer[0, 0].numel() * c.k_buffer.element_size())
