"""LightLLM-style token memory manager with a CPU KV cache for prompt reuse."""
from .build import init_memory_pool

__all__ = ["init_memory_pool"]
