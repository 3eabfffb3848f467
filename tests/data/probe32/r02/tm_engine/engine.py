"""Engine bootstrap: config -> device cache + host tier."""
from .cache_engine import CacheEngine
from .config import CacheConfig, ModelConfig, QuantPolicy
from .host_cache import HostCacheTier


def build_cache(device="cuda", host_device=None, model_config=None, cache_config=None, **overrides):
    """Return ``(cache_engine, host_tier)``.

    ``overrides`` may contain ``quant_policy`` (int) or any CacheConfig field.
    """
    model_config = model_config or ModelConfig()
    cache_config = cache_config or CacheConfig()
    for key, value in overrides.items():
        if key == "quant_policy":
            value = QuantPolicy(value)
        setattr(cache_config, key, value)
    if host_device is None:
        host_device = "meta" if str(device).startswith("meta") else "cpu"
    engine = CacheEngine(cache_config, model_config, device=device)
    return engine, HostCacheTier(engine, device=host_device)
