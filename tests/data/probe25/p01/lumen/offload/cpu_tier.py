from typing import List

import torch

from lumen.kv_spec import AttnLayerSpec


class HostOffloadArena:
    """CPU tier that GPU blocks are evicted to; blocks are copied whole per layer."""

    def __init__(self, specs: List[AttnLayerSpec], capacity_bytes: int, device="cpu"):
        per_block = sum(s.page_size_bytes for s in specs)
        self.num_blocks = capacity_bytes // per_block
        self.block_size = specs[0].block_size
        pin = str(device) == "cpu" and torch.cuda.is_available()
        self.layer_buffers: List[torch.Tensor] = [
            torch.empty((self.num_blocks, 2, s.block_size, s.num_kv_heads, s.head_size),
                        dtype=s.dtype, device=device, pin_memory=pin)
            for s in specs
        ]

    def block_view(self, layer: int, block_id: int) -> torch.Tensor:
        return self.layer_buffers[layer][block_id]
