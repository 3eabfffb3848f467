"""Worker-side cache initialisation."""
from ..config import CacheConfig, ModelConfig, ParallelConfig
from .cache_engine import CacheEngine
from .swap_space import SwapSpace


def init_cache_engine(device="cuda", swap_device=None, model_config=None, cache_config=None, parallel_config=None):
    """Return ``(cache_engine, swap_space)`` for this worker's pipeline stage."""
    model_config = model_config or ModelConfig()
    cache_config = cache_config or CacheConfig()
    parallel_config = parallel_config or ParallelConfig()
    if swap_device is None:
        swap_device = "meta" if str(device) == "meta" else "cpu"
    engine = CacheEngine(cache_config, model_config, parallel_config, device=device)
    swap = SwapSpace(cache_config, model_config, parallel_config, device=swap_device)
    return engine, swap
