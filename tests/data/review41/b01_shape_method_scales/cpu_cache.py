import torch
from gpu_cache import QuantKVCache


class CpuQuantKVMirror:
    def __init__(self, gpu_cache: QuantKVCache, num_slots: int):
        self.gpu_cache = gpu_cache
        self.num_slots = num_slots
        L, H, D = gpu_cache.n_layers, gpu_cache.n_kv_heads, gpu_cache.head_size
        self.k_cache = torch.empty((L, num_slots, H, D), dtype=torch.float8_e4m3fn, device="cpu")
        self.v_cache = torch.empty((L, num_slots, H, D), dtype=torch.float8_e4m3fn, device="cpu")
        self.k_scale = torch.empty((L, num_slots, H), dtype=torch.float32, device="cpu")
        self.v_scale = torch.empty((L, num_slots, H), dtype=torch.float32, device="cpu")
