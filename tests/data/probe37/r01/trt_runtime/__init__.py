"""Minimal Python runtime for engines produced by the builder (KV cache management only)."""
from .config import KvCacheConfig, Mapping, ModelConfig
from .kv_cache_manager import KVCacheManager
from .host_offload import SecondaryBlockPool

__all__ = ["KvCacheConfig", "Mapping", "ModelConfig", "KVCacheManager", "SecondaryBlockPool"]
