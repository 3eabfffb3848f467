"""CPU offload of quantised KV for paused sequences.

Rows are stored flat, (slots, heads, packed) for data and a scale per
(slot, head) so a paused job can be restored without re-running prefill.
"""
from typing import List

import torch

from .qtypes import named_dtype, packed_width


class CPUOffloadCache:
    def __init__(self, settings, num_slots: int, device="cpu"):
        self.num_slots = num_slots
        self.num_layers = settings.num_hidden_layers
        self.num_kv_heads = settings.num_key_value_heads
        width = packed_width(settings.head_dim, settings.mode)
        sdt = named_dtype(settings.scale_dtype)

        def buf(shape, dtype):
            return [torch.empty(shape, dtype=dtype, device=device)
                    for _ in range(self.num_layers)]

        self.k_data: List[torch.Tensor] = buf((num_slots, self.num_kv_heads, width), torch.uint8)
        self.v_data: List[torch.Tensor] = buf((num_slots, self.num_kv_heads, width), torch.uint8)
        self.k_scale: List[torch.Tensor] = buf((num_slots, self.num_kv_heads), sdt)
        self.v_scale: List[torch.Tensor] = buf((num_slots, self.num_kv_heads), sdt)

    def offload(self, cache, batch_idx: int, length: int, dst: torch.Tensor) -> None:
        for i in range(self.num_layers):
            self.k_data[i][dst] = cache.key_states[i][batch_idx, :length].cpu()
            self.v_data[i][dst] = cache.value_states[i][batch_idx, :length].cpu()
            self.k_scale[i][dst] = cache.key_scales[i][batch_idx, :length].reshape(length, self.num_kv_heads, -1)[..., 0].cpu()
            self.v_scale[i][dst] = cache.value_scales[i][batch_idx, :length].reshape(length, self.num_kv_heads, -1)[..., 0].cpu()
