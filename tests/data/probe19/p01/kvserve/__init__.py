"""Slot-addressed KV cache for the in-house serving stack."""
from .config import CacheConfig
from .engine import build_kv_caches

__all__ = ["CacheConfig", "build_kv_caches"]
