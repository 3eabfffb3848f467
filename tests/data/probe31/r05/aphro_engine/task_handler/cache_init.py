from typing import Optional, Tuple

from aphro_engine.common.config import (
    CacheConfig,
    ModelConfig,
    ParallelConfig,
    default_cache_config,
    default_model_config,
    default_parallel_config,
)
from aphro_engine.task_handler.cpu_swap_pool import CPUSwapPool
from aphro_engine.task_handler.gpu_block_pool import GPUBlockPool


def init_cache_engine(
    model_config: Optional[ModelConfig] = None,
    parallel_config: Optional[ParallelConfig] = None,
    cache_config: Optional[CacheConfig] = None,
    device: str = "cuda",
) -> Tuple[GPUBlockPool, CPUSwapPool]:
    """Allocate this worker's device block pool and its CPU swap pool."""
    model_config = model_config or default_model_config()
    parallel_config = parallel_config or default_parallel_config()
    cache_config = cache_config or default_cache_config()

    gpu_pool = GPUBlockPool(cache_config, model_config, parallel_config, device=device)
    cpu_pool = CPUSwapPool(cache_config, model_config, num_layers=gpu_pool.num_layers)
    return gpu_pool, cpu_pool
