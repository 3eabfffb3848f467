from typing import Optional

import torch


class TokenKVBuffers:
    def __init__(
        self,
        size: int,
        page_size: int,
        dtype: torch.dtype,
        head_num: int,
        head_dim: int,
        layer_num: int,
        device: str,
        v_head_dim: Optional[int] = None,
    ):
        self.size = size
        self.page_size = page_size
        self.dtype = dtype
        self.layer_num = layer_num
        self.v_head_dim = head_dim if v_head_dim is None else v_head_dim
        rows = size + page_size
        self.k_buffer = [
            torch.zeros((rows, head_num, head_dim), dtype=dtype, device=device)
            for _ in range(layer_num)
        ]
        self.v_buffer = [
            torch.zeros((rows, head_num, self.v_head_dim), dtype=dtype, device=device)
            for _ in range(layer_num)
        ]

    def get_kv_buffer(self, layer_id: int):
        return self.k_buffer[layer_id], self.v_buffer[layer_id]
