"""windowkv: full-attention KV pool for interleaved sliding-window models, plus host tier."""
from .scheduler import HybridModelConfig, init_memory_pools

__all__ = ["HybridModelConfig", "init_memory_pools"]
