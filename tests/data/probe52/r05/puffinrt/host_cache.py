"""Host staging area for FP4 KV pages evicted from the GPU."""
import torch

FP4_SCALE_GROUP = 16


class Fp4HostStage:
    def __init__(self, gpu_cache, host_tokens: int, device="cpu"):
        self.page_size = gpu_cache.page_size
        self.num_slots = (host_tokens // self.page_size) * self.page_size
        heads, dim = gpu_cache.kv_heads, gpu_cache.head_dim
        scale_dtype = gpu_cache.scheme.scale_dtype
        data_shape = (self.num_slots, heads, dim // 2)
        scale_shape = (self.num_slots, heads, dim // FP4_SCALE_GROUP)
        n = gpu_cache.num_layers
        self.k_data = [torch.empty(data_shape, dtype=torch.uint8, device=device) for _ in range(n)]
        self.v_data = [torch.empty(data_shape, dtype=torch.uint8, device=device) for _ in range(n)]
        self.k_scale = [torch.empty(scale_shape, dtype=scale_dtype, device=device) for _ in range(n)]
        self.v_scale = [torch.empty(scale_shape, dtype=scale_dtype, device=device) for _ in range(n)]

    def page_slices(self, page: int):
        lo = page * self.page_size
        return slice(lo, lo + self.page_size)
