import torch

from .dtypes import dtype_size


class CPUSwapSpace:
    """Host-side swap area mirroring the GPU block layout."""

    def __init__(self, gpu_pool, swap_space_bytes: int, device="cpu"):
        self.num_layers = gpu_pool.num_layers
        self.block_size = gpu_pool.block_size
        self.num_kv_heads = gpu_pool.num_kv_heads
        self.head_size = gpu_pool.head_size
        self.dtype = gpu_pool.dtype
        self.num_blocks = max(1, swap_space_bytes // self.get_cache_block_size(gpu_pool))
        pin = device == "cpu" and torch.cuda.is_available()
        self.kv_cache = []
        self.kv_scales = []
        for _ in range(self.num_layers):
            kv = torch.empty((2, self.num_blocks, self.block_size, self.num_kv_heads, self.head_size),
                             dtype=self.dtype, device=device, pin_memory=pin)
            sc = torch.empty((2, self.num_blocks, self.block_size, self.num_kv_heads),
                             dtype=torch.bfloat16, device=device, pin_memory=pin)
            self.kv_cache.append(kv)
            self.kv_scales.append(sc)

    @staticmethod
    def get_cache_block_size(gpu_pool) -> int:
        per_token = 2 * gpu_pool.num_kv_heads * (gpu_pool.head_size * dtype_size(gpu_pool.dtype)
                                                 + dtype_size(gpu_pool.scale_dtype))
        return per_token * gpu_pool.block_size * gpu_pool.num_layers

    def swap_in(self, gpu_pool, mapping):
        for layer in range(self.num_layers):
            for src, dst in mapping:
                gpu_pool.kv_cache[layer][:, dst].copy_(self.kv_cache[layer][:, src], non_blocking=True)
                gpu_pool.kv_scales[layer][:, dst].copy_(self.kv_scales[layer][:, src], non_blocking=True)

    def swap_out(self, gpu_pool, mapping):
        for layer in range(self.num_layers):
            for src, dst in mapping:
                self.kv_cache[layer][:, dst].copy_(gpu_pool.kv_cache[layer][:, src])
                self.kv_scales[layer][:, dst].copy_(gpu_pool.kv_scales[layer][:, src])
