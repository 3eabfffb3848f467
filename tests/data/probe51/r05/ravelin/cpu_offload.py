"""CPU offload store; offload blocks group several GPU blocks together."""
from __future__ import annotations

import dataclasses

import torch

from .spec import PagedAttnSpec


class CpuBlockStore:
    def __init__(self, gpu_spec: PagedAttnSpec, num_layers: int, cpu_bytes: int,
                 blocks_per_offload: int = 16, device: str = "cpu"):
        self.spec = dataclasses.replace(
            gpu_spec, block_size=gpu_spec.block_size * blocks_per_offload)
        self.num_blocks = cpu_bytes // (self.spec.page_size_bytes * num_layers)
        self.blocks = [
            torch.empty((self.num_blocks, self.spec.page_size_bytes), dtype=torch.uint8,
                        device=device)
            for _ in range(num_layers)
        ]

    @property
    def tokens_per_block(self) -> int:
        return self.spec.block_size
