"""shardcache: tensor-parallel KV pool with a host shelf (per-rank)."""
from .options import CacheOptions
from .worker import bring_up

__all__ = ["CacheOptions", "bring_up"]
