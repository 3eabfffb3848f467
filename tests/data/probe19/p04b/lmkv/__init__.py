"""Quantized paged KV cache (LMDeploy-style quant_policy) with host swap blocks."""
from .args import default_args
from .cache_engine import CacheEngine

__all__ = ["CacheEngine", "default_args"]
