from typing import List

import torch

from quasar_serve.registry import register_pool


@register_pool("mha")
class MHATokenToKVPool:
    """Token-granular pool. Row 0 is reserved as the dummy slot for padded tokens."""

    def __init__(self, size: int, dtype: torch.dtype, head_num: int, head_dim: int,
                 v_head_dim: int, layer_num: int, device: str) -> None:
        self.size = size
        self.dtype = dtype
        self.head_num = head_num
        self.head_dim = head_dim
        self.v_head_dim = v_head_dim
        self.layer_num = layer_num
        self.device = device
        self.k_buffer: List[torch.Tensor] = [
            torch.zeros((size + 1, head_num, head_dim), dtype=dtype, device=device)
            for _ in range(layer_num)]
        self.v_buffer: List[torch.Tensor] = [
            torch.zeros((size + 1, head_num, v_head_dim), dtype=dtype, device=device)
            for _ in range(layer_num)]

    @property
    def num_slots(self) -> int:
        return self.size + 1
