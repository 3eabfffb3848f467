from typing import List

import torch

from swiftserve.worker.layout import key_block_shape, value_block_shape


class GpuBlockCache:
    """Per-layer paged K/V caches resident on the accelerator."""

    def __init__(self, num_blocks: int, block_size: int, num_layers: int,
                 num_kv_heads: int, head_size: int, dtype: torch.dtype,
                 device: str = "cuda") -> None:
        self.num_blocks = num_blocks
        self.block_size = block_size
        self.num_layers = num_layers
        self.dtype = dtype
        self.key_block = key_block_shape(num_kv_heads, head_size, block_size, dtype)
        self.value_block = value_block_shape(num_kv_heads, head_size, block_size)

        self.key_caches: List[torch.Tensor] = []
        self.value_caches: List[torch.Tensor] = []
        for _ in range(num_layers):
            self.key_caches.append(
                torch.empty((num_blocks, *self.key_block), dtype=dtype, device=device))
            self.value_caches.append(
                torch.empty((num_blocks, *self.value_block), dtype=dtype, device=device))

    @property
    def num_tokens(self) -> int:
        return self.num_blocks * self.block_size
