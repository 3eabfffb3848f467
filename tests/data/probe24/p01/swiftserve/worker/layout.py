"""Paged-attention v1 block layouts.

The key cache is stored with the last dimension split into chunks of 16 bytes
(`x` elements) so that the kernel can issue vectorised loads.
"""
from typing import Tuple

import torch


def get_x(dtype: torch.dtype) -> int:
    element_size = torch.tensor([], dtype=dtype).element_size()
    return 16 // element_size


def key_block_shape(num_kv_heads: int, head_size: int, block_size: int,
                    dtype: torch.dtype) -> Tuple[int, ...]:
    x = get_x(dtype)
    assert head_size % x == 0, f"head_size {head_size} not divisible by x={x}"
    return (num_kv_heads, head_size // x, block_size, x)


def value_block_shape(num_kv_heads: int, head_size: int,
                      block_size: int) -> Tuple[int, ...]:
    return (num_kv_heads, head_size, block_size)
