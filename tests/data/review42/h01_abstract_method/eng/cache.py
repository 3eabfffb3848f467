import torch

from .config import ModelArch


class GPUKVCache:
    def __init__(self, arch: ModelArch, num_blocks: int, block_size: int, tp_size: int = 1,
                 dtype=torch.float16, device="cuda"):
        self.block_size = block_size
        self.heads = arch.get_num_kv_heads(tp_size)
        self.head_size = arch.get_head_size()
        self.num_layers = arch.num_hidden_layers
        self.dtype = dtype
        self.k_cache = [torch.empty((num_blocks, block_size, self.heads, self.head_size),
                                    dtype=dtype, device=device) for _ in range(self.num_layers)]
        self.v_cache = [torch.empty((num_blocks, block_size, self.heads, self.head_size),
                                    dtype=dtype, device=device) for _ in range(self.num_layers)]


class CPUSwapCache:
    def __init__(self, gpu: GPUKVCache, num_blocks: int, device="cpu"):
        self.block_size = gpu.block_size
        shape = (num_blocks, gpu.block_size, gpu.heads, gpu.head_size)
        self.k_cache = [torch.empty(shape, dtype=gpu.dtype, device=device)
                        for _ in range(gpu.num_layers)]
        self.v_cache = [torch.empty(shape, dtype=gpu.dtype, device=device)
                        for _ in range(gpu.num_layers)]
