"""Builds the GPU memory manager and its CPU offload mirror for a model."""
import torch

from .mem_manager import MemoryManager, INT8KVMemoryManager
from .cpu_cache import CpuKvCache


def init_memory_pool(
    device="cuda",
    host_device=None,
    max_total_token_num=2048,
    layer_num=24,
    head_num=8,
    head_dim=128,
    dtype=torch.float16,
    mode="int8kv",
):
    """Return ``(mem_manager, cpu_cache)`` for the given model geometry."""
    if host_device is None:
        host_device = "meta" if torch.device(device).type == "meta" else "cpu"
    int8kv = mode == "int8kv"
    manager_cls = INT8KVMemoryManager if int8kv else MemoryManager
    mem_manager = manager_cls(max_total_token_num, dtype, head_num, head_dim, layer_num, device=device)
    cpu_cache = CpuKvCache(
        max_total_token_num, dtype, head_num, head_dim, layer_num, int8kv=int8kv, device=host_device
    )
    return mem_manager, cpu_cache
