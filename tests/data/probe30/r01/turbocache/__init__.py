"""Block-based KV cache management (TurboMind-style engine side)."""
from .config import CacheConfig, CacheDType, ModelConfig, ParallelConfig
from .block_pool import BlockCachePool
from .swap import HostSwapPool
from .engine import build_cache_engine

__all__ = [
    "CacheConfig",
    "CacheDType",
    "ModelConfig",
    "ParallelConfig",
    "BlockCachePool",
    "HostSwapPool",
    "build_cache_engine",
]
