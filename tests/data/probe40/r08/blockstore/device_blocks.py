"""Block-table KV cache on the GPU: one tensor with a layer dimension."""
from typing import Optional

import torch

from .spec import BlockSpec


class DeviceBlockTable:
    def __init__(self, spec: BlockSpec, num_blocks: int, block_size: Optional[int] = None,
                 device="cuda"):
        self.spec = spec
        self.block_size = block_size or spec.block_size
        self.num_blocks = num_blocks
        # [layers, 2(k/v), blocks, block_size, heads, head_dim]
        self.kv_blocks = torch.empty(
            (spec.num_layers, 2, num_blocks, self.block_size, spec.kv_heads, spec.head_dim),
            dtype=spec.dtype,
            device=device,
        )

    def slot_to_block(self, slot: torch.Tensor):
        return slot // self.block_size, slot % self.block_size

    def layer(self, i: int):
        return self.kv_blocks[i, 0], self.kv_blocks[i, 1]
