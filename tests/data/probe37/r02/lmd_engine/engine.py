"""Engine bootstrap: build the device cache and its host swap space."""
from typing import Optional

from .cache_engine import CacheEngine
from .config import CacheConfig, ModelConfig
from .swap_space import HostSwapSpace


def build_cache_engines(device: str = "cuda", quant_policy: int = 8, world_size: int = 1,
                        model_config: Optional[ModelConfig] = None,
                        cache_config: Optional[CacheConfig] = None):
    model_config = model_config or ModelConfig()
    cache_config = cache_config or CacheConfig(quant_policy=quant_policy)
    host_device = "meta" if str(device) == "meta" else "cpu"
    gpu = CacheEngine(cache_config, model_config, world_size=world_size, device=device)
    host = HostSwapSpace(cache_config, model_config, world_size=world_size, device=host_device)
    return gpu, host
