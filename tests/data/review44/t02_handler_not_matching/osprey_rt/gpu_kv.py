"""GPU pool: one fused [layer, k/v, slot, head, ...] tensor for data and one for scales."""
from __future__ import annotations

import torch

from .quant import lookup


class BlockScaledDevicePool:
    def __init__(self, hf: dict, tp_size: int, kv_cache_dtype: str, budget_bytes: int,
                 device: str = "cuda"):
        self.fmt = lookup(kv_cache_dtype)
        self.layer_num = hf["num_hidden_layers"]
        self.head_num = max(1, hf["num_key_value_heads"] // tp_size)
        self.head_dim = hf.get("head_dim", hf["hidden_size"] // hf["num_attention_heads"])
        self.packed_dim = self.head_dim // self.fmt.values_per_byte
        self.blocks_per_head = self.head_dim // self.fmt.block
        self.slots = self._slots_from_budget(budget_bytes)

        lead = (self.layer_num, 2, self.slots, self.head_num)
        self.kv_data = torch.zeros((*lead, self.packed_dim), dtype=torch.uint8,
                                   device=device).view(self.fmt.data_dtype)
        scale_bytes = self.blocks_per_head * self.fmt.scale_dtype.itemsize
        self.kv_scales = torch.zeros((*lead, scale_bytes), dtype=torch.uint8,
                                     device=device).view(self.fmt.scale_dtype)

    def bytes_per_token(self) -> int:
        per_head = self.packed_dim + self.blocks_per_head * self.fmt.scale_dtype.itemsize
        return 2 * self.head_num * per_head * self.layer_num

    def _slots_from_budget(self, budget_bytes: int) -> int:
        return budget_bytes // self.bytes_per_token()
