import math

import torch

from .dtypes import KVDType, to_torch


def _contiguous_strides(size):
    strides, acc = [], 1
    for dim in reversed(size):
        strides.append(acc)
        acc *= dim
    return tuple(reversed(strides))


class BlockKVTable:
    """All layers' K and V blocks in one strided tensor on the GPU.

    Layout: [layer, block, kv(2), slot, head, head_dim]
    """

    default_dtype = KVDType.BF16

    def __init__(self, num_blocks, block_size, num_layers, num_heads, head_dim,
                 dtype=None, device="cuda"):
        self.num_blocks = num_blocks
        self.block_size = block_size
        self.num_layers = num_layers
        self.torch_dtype = to_torch(dtype or self.default_dtype)
        self.block_shape = (2, block_size, num_heads, head_dim)
        size = (num_layers, num_blocks) + self.block_shape
        self.kv = torch.empty_strided(size, _contiguous_strides(size),
                                      dtype=self.torch_dtype, device=device)

    def bytes_per_block(self) -> int:
        return self.num_layers * math.prod(self.block_shape) * self.kv.element_size()

    def layer(self, i):
        return self.kv[i, :, 0], self.kv[i, :, 1]
