"""KV cache initialisation for flash causal LMs."""
import torch

from ..layers.kv_cache import PagedKVCache
from ..prefix_cache.cpu_tier import CpuPrefixTier

KV_CACHE_DTYPES = {None: None, "fp8_e4m3fn": torch.float8_e4m3fn, "fp8_e5m2": torch.float8_e5m2}


def init_kv_cache(device="cuda", host_device=None, num_blocks=4096, num_cpu_blocks=8192,
                  num_layers=32, num_heads=8, head_size=128, dtype=torch.bfloat16,
                  kv_cache_dtype="fp8_e4m3fn"):
    if host_device is None:
        host_device = "meta" if str(device) == "meta" else "cpu"
    kv_cache = PagedKVCache(
        num_blocks=num_blocks,
        num_layers=num_layers,
        num_heads=num_heads,
        head_size=head_size,
        dtype=dtype,
        kv_cache_dtype=KV_CACHE_DTYPES[kv_cache_dtype],
        device=device,
    )
    cpu_tier = CpuPrefixTier(
        num_blocks=num_cpu_blocks,
        num_layers=num_layers,
        num_heads=num_heads,
        head_size=head_size,
        dtype=dtype,
        device=host_device,
    )
    return kv_cache, cpu_tier
