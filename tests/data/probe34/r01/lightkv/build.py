"""Construct the GPU memory manager and its CPU prompt cache."""
import torch

from .cpu_cache import CpuKvCache
from .mem_manager import MemoryManager


def init_memory_pool(device="cuda", cpu_device=None, max_total_token_num=16384,
                     layer_num=32, head_num=8, head_dim=128, data_type="float16",
                     cpu_cache_page_num=256, cpu_cache_token_page_size=64):
    dtype = {"float16": torch.float16, "bfloat16": torch.bfloat16}[data_type]
    if cpu_device is None:
        cpu_device = "meta" if str(device) == "meta" else "cpu"
    mem_manager = MemoryManager(
        size=max_total_token_num,
        dtype=dtype,
        head_num=head_num,
        head_dim=head_dim,
        layer_num=layer_num,
        device=device,
    )
    cpu_cache = CpuKvCache(
        page_num=cpu_cache_page_num,
        token_page_size=cpu_cache_token_page_size,
        layer_num=layer_num,
        head_num=head_num,
        head_dim=head_dim,
        dtype=dtype,
        device=cpu_device,
        pin_memory=(cpu_device == "cpu"),
    )
    return mem_manager, cpu_cache
