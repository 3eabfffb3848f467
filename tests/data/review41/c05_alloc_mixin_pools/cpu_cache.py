import torch
from gpu_cache import GpuKVCache


class CpuKVMirror:
    def __init__(self, gpu_cache: GpuKVCache, num_slots: int):
        self.gpu_cache = gpu_cache
        self.num_slots = num_slots
        shape = (gpu_cache.n_layers, num_slots, gpu_cache.n_kv_heads, gpu_cache.head_size)
        self.k = torch.empty(shape, dtype=gpu_cache.dtype, device="cpu")
        self.v = torch.empty(shape, dtype=gpu_cache.dtype, device="cpu")
