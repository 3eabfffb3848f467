"""Worker-side cache initialisation."""
from typing import Optional, Tuple

import torch

from .config import CacheSpec, ModelSpec
from .dtypes import cache_dtype_from_env
from .gpu_cache import GPUKVCache
from .swap_space import CPUSwapSpace


def init_cache_engine(
    num_layers: int = 12,
    num_kv_heads: int = 8,
    head_size: int = 128,
    model_dtype: torch.dtype = torch.bfloat16,
    block_size: int = 16,
    num_gpu_blocks: int = 1024,
    num_cpu_blocks: int = 512,
    cache_dtype: Optional[str] = None,
    device="cuda",
    swap_device: Optional[str] = None,
) -> Tuple[GPUKVCache, CPUSwapSpace]:
    model = ModelSpec(num_layers=num_layers, num_kv_heads=num_kv_heads, head_size=head_size, dtype=model_dtype)
    cache = CacheSpec(
        block_size=block_size,
        num_gpu_blocks=num_gpu_blocks,
        num_cpu_blocks=num_cpu_blocks,
        cache_dtype=cache_dtype_from_env() if cache_dtype is None else cache_dtype,
    )
    gpu = GPUKVCache.from_config(model, cache, device=device)
    if swap_device is None:
        swap_device = "meta" if torch.device(device).type == "meta" else "cpu"
    cpu = CPUSwapSpace.from_config(model, cache, device=swap_device)
    return gpu, cpu
