"""Device tier: one fully contiguous allocation laid out as
(num_blocks, num_layers, 2, block_size, kv_heads_per_rank * head_dim)."""

import torch

from .config import KvbmConfig


class DeviceBlockPool:
    def __init__(self, config: KvbmConfig, num_blocks: int, device="cuda"):
        self.num_blocks = num_blocks
        self.block_size = config.block_size
        self.num_layers = config.num_layers
        self.kv_heads_per_rank = max(1, config.num_kv_heads // config.tp_size)
        self.inner_dim = self.kv_heads_per_rank * config.head_dim
        self.dtype = config.dtype
        self.kv_blocks = torch.empty(
            (num_blocks, self.num_layers, 2, self.block_size, self.inner_dim),
            dtype=self.dtype,
            device=device,
        )
        self.free_blocks = list(range(num_blocks))

    def allocate(self, n: int):
        if n > len(self.free_blocks):
            raise RuntimeError("out of device blocks")
        blocks, self.free_blocks = self.free_blocks[:n], self.free_blocks[n:]
        return blocks

    def release(self, block_ids):
        self.free_blocks.extend(block_ids)

    @property
    def num_free_blocks(self):
        return len(self.free_blocks)

    def layer_view(self, block_id: int, layer: int):
        """(2, block_size, inner_dim) slice of one block for one layer."""
        return self.kv_blocks[block_id, layer]
