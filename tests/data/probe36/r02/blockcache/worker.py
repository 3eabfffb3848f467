from .cache_engine import CacheEngine
from .config import CacheConfig, EngineConfig, ParallelConfig


def init_cache_engine(device: str = "cuda", tensor_parallel_size: int = 2) -> CacheEngine:
    config = EngineConfig(
        cache=CacheConfig(block_size=16, cache_dtype="auto", num_gpu_blocks=4096),
        parallel=ParallelConfig(tensor_parallel_size=tensor_parallel_size),
    )
    return CacheEngine(config, device=device)
