"""Worker-side KV cache initialisation for the offloading connector."""

from .config import CacheConfig, ModelConfig
from .cpu_store import CPUBlockStore
from .gpu_cache import GPUKVCache


def build_caches(model_config=None, cache_config=None, device="cuda", host_device=None):
    """Return (gpu_cache, cpu_store)."""
    model_config = model_config or ModelConfig()
    cache_config = cache_config or CacheConfig()
    if host_device is None:
        host_device = "meta" if str(device) == "meta" else "cpu"
    gpu_cache = GPUKVCache(model_config, cache_config, device=device)
    cpu_store = CPUBlockStore(model_config, cache_config, device=host_device)
    return gpu_cache, cpu_store
