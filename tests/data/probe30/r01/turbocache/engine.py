"""Cache engine bootstrap."""
from typing import Optional, Tuple

import torch

from .block_pool import BlockCachePool
from .config import CacheConfig, CacheDType, ModelConfig, ParallelConfig
from .swap import HostSwapPool


def build_cache_engine(
    num_layers: int = 16,
    num_key_value_heads: int = 8,
    head_dim: int = 128,
    block_size: int = 64,
    num_gpu_blocks: int = 256,
    num_cpu_blocks: int = 128,
    cache_dtype: str = "bf16",
    tp: int = 2,
    rank: int = 0,
    device="cuda",
    host_device: Optional[str] = None,
) -> Tuple[BlockCachePool, HostSwapPool]:
    model_config = ModelConfig(
        num_layers=num_layers,
        num_attention_heads=4 * num_key_value_heads,
        num_key_value_heads=num_key_value_heads,
        head_dim=head_dim,
    )
    cache_config = CacheConfig(
        block_size=block_size,
        num_gpu_blocks=num_gpu_blocks,
        num_cpu_blocks=num_cpu_blocks,
        cache_dtype=CacheDType(cache_dtype),
    )
    parallel_config = ParallelConfig(tp=tp, rank=rank)

    if host_device is None:
        host_device = "meta" if torch.device(device).type == "meta" else "cpu"

    gpu_pool = BlockCachePool(cache_config, model_config, parallel_config, device=device)
    host_pool = HostSwapPool(cache_config, model_config, device=host_device)
    return gpu_pool, host_pool
