from dataclasses import dataclass

import torch


@dataclass
class Block:
    k: torch.Tensor
    v: torch.Tensor


class DeviceKVPool:
    """Block-major: each block holds its tokens for every layer (one DMA per block)."""

    def __init__(self, size: int, layer_num: int, head_num: int, head_dim: int,
                 block_size: int = 16, dtype=torch.bfloat16, device="cuda"):
        self.size, self.layer_num, self.head_num, self.head_dim = size, layer_num, head_num, head_dim
        self.block_size, self.dtype = block_size, dtype
        shape = (layer_num, block_size, head_num, head_dim)
        self.blocks = [Block(k=torch.empty(shape, dtype=dtype, device=device),
                             v=torch.empty(shape, dtype=dtype, device=device))
                       for _ in range(size // block_size)]


class HostKVPool:
    def __init__(self, device_pool: DeviceKVPool, size: int, device="cpu"):
        self.size = size
        shape = (size, device_pool.head_num, device_pool.head_dim)
        self.blocks = [Block(k=torch.empty(shape, dtype=device_pool.dtype, device=device),
                             v=torch.empty(shape, dtype=device_pool.dtype, device=device))
                       for _ in range(device_pool.layer_num)]
