"""Worker-side cache construction."""
from ..config import CacheConfig, ModelConfig, ParallelConfig
from ..swap.flat_backend import FlatSwapBackend
from .cache_engine import CacheEngine


def build_caches(device="cuda", swap_device=None, model_config=None, cache_config=None,
                 parallel_config=None):
    model_config = model_config or ModelConfig()
    cache_config = cache_config or CacheConfig()
    parallel_config = parallel_config or ParallelConfig()
    if swap_device is None:
        swap_device = "meta" if str(device) == "meta" else "cpu"
    backend = FlatSwapBackend(cache_config, model_config, parallel_config, device=swap_device)
    engine = CacheEngine(cache_config, model_config, parallel_config, device=device,
                         swap_backend=backend)
    return engine, backend
