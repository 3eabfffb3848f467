"""LightLLM-derived KV memory management used by our router fork."""
from .mem_manager import MemoryManager, INT8KVMemoryManager
from .cpu_cache import CpuKvCache
from .model_init import init_memory_pool

__all__ = ["MemoryManager", "INT8KVMemoryManager", "CpuKvCache", "init_memory_pool"]
