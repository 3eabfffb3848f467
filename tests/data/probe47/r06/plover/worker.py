"""Worker-side cache initialization."""
from __future__ import annotations

from .attention import get_attn_backend
from .cache_engine import CpuSwapCache, GpuBlockCache
from .config import CacheConfig, ModelConfig, ParallelConfig


def init_cache_engines(model_config: ModelConfig, cache_config: CacheConfig,
                       parallel_config: ParallelConfig, backend_name: str = "flash_attn",
                       device: str = "cuda", swap_device: str = "cpu"):
    backend = get_attn_backend(backend_name)
    block_bytes = GpuBlockCache.get_cache_block_size(model_config, cache_config, parallel_config)
    num_cpu_blocks = cache_config.swap_space_bytes // block_bytes
    common = (model_config, cache_config, parallel_config, backend)
    gpu = GpuBlockCache(*common, n_blocks=cache_config.num_gpu_blocks, device=device)
    cpu = CpuSwapCache(*common, n_blocks=num_cpu_blocks, device=swap_device)
    return gpu, cpu
