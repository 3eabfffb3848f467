"""Generation-session helpers: build the KV pools for one rank."""
from typing import Optional, Tuple

from .config import KvCacheConfig, Mapping, ModelConfig
from .host_offload import SecondaryBlockPool
from .kv_cache_manager import KVCacheManager


def create_kv_pools(device: str = "cuda",
                    model_config: Optional[ModelConfig] = None,
                    mapping: Optional[Mapping] = None,
                    kv_config: Optional[KvCacheConfig] = None) -> Tuple[KVCacheManager, SecondaryBlockPool]:
    """Primary pool on ``device``, secondary pool in host memory (or meta for dry runs)."""
    model_config = model_config or ModelConfig()
    mapping = mapping or Mapping(world_size=2, tp_size=2)
    kv_config = kv_config or KvCacheConfig()
    host_device = "meta" if str(device) == "meta" else "cpu"
    primary = KVCacheManager(model_config, mapping, kv_config, device=device)
    secondary = SecondaryBlockPool(model_config, mapping, kv_config, device=host_device,
                                   pin_memory=host_device == "cpu")
    return primary, secondary
