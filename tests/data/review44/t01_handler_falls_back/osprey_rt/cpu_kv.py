"""Host pool holding the same blocks as flat byte rows for the DMA engine."""
from __future__ import annotations

import torch


class BlockScaledHostPool:
    def __init__(self, fmt, layer_num: int, head_num: int, head_dim: int,
                 host_slots: int, device: str = "cpu"):
        self.fmt = fmt
        self.slots = host_slots
        data_row = head_num * head_dim * fmt.data_dtype.itemsize
        scale_row = head_num * (head_dim // fmt.block) * fmt.scale_dtype.itemsize
        self.kv_data = torch.empty((layer_num, 2, host_slots, data_row), dtype=torch.uint8,
                                   device=device)
        self.kv_scales = torch.empty((layer_num, 2, host_slots, scale_row), dtype=torch.uint8,
                                     device=device)

    def row_bytes(self) -> int:
        return self.kv_data.shape[-1] + self.kv_scales.shape[-1]
