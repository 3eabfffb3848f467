import torch

from .config import CacheConfig
from .pools import CpuKVPool, GpuKVPool

_DTYPES = {"fp8_e4m3": torch.float8_e4m3fn, "bf16": torch.bfloat16}


def build_pools(cfg: CacheConfig, device="cuda"):
    gpu_dtype = torch.float8_e4m3fn if cfg.fp8_kv_cache else torch.bfloat16
    gpu = GpuKVPool(cfg.max_gpu_tokens, cfg.num_layers, cfg.num_kv_heads, cfg.head_dim, gpu_dtype, device)
    cpu = CpuKVPool(cfg.max_cpu_tokens, cfg.num_layers, cfg.num_kv_heads, cfg.head_dim, _DTYPES[cfg.kv_cache_dtype], "cpu")
    return gpu, cpu


if __name__ == "__main__":
    for kv in ("fp8_e4m3", "bf16"):
        g, c = build_pools(CacheConfig(kv_cache_dtype=kv), device="meta")
        c = type(c)(8, 32, 8, 128, c.k_buffer.dtype, "meta")
        print(kv, g.k_buffer[0, 0].numel() * g.k_buffer.element_size(), c.k_buffer[0, 0].numel() * c.k_buffer.element_size())
