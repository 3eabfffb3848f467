"""Paged KV cache with CPU swap space (vLLM-derived fork)."""
from .config import CacheConfig, ModelShape
from .engine import CacheEngine
