"""Device pools of a sparse model: main K/V, and index K alone (no V) for the sparse layers.

layout-audit test tree (tests/test_anchor_host.py), after SGLang 0.5.23 `memory_pool.py`.
"""

import torch


class MHATokenToKVPool:
    def __init__(self, size: int, page_size: int, dtype: torch.dtype, head_num: int,
                 head_dim: int, layer_num: int, device: str):
        self.size = size
        self.page_size = page_size
        self.store_dtype = dtype
        self.head_num = head_num
        self.head_dim = head_dim
        self.layer_num = layer_num
        self.k_buffer = [
            torch.zeros((size + page_size, head_num, head_dim), dtype=dtype, device=device)
            for _ in range(layer_num)
        ]
        self.v_buffer = [
            torch.zeros((size + page_size, head_num, head_dim), dtype=dtype, device=device)
            for _ in range(layer_num)
        ]


class IndexKOnlyPool:
    def __init__(self, size: int, page_size: int, dtype: torch.dtype, head_num: int,
                 head_dim: int, layer_num: int, device: str):
        self.size = size
        self.page_size = page_size
        self.store_dtype = dtype
        self.head_num = head_num
        self.head_dim = head_dim
        self.layer_num = layer_num
        self.k_buffer = [
            torch.zeros((size + page_size, head_num, head_dim), dtype=dtype, device=device)
            for _ in range(layer_num)
        ]
