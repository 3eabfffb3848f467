"""Shape helpers shared by every KV tier so layouts stay in one place."""
from typing import Tuple

import torch

DTYPES = {"fp8": torch.float8_e4m3fn, "bf16": torch.bfloat16, "fp16": torch.float16}
SCALE_DTYPE = torch.float32
KV = 2


def kv_shape(n_layers: int, n_slots: int, n_heads: int, head_dim: int) -> Tuple[int, ...]:
    return (n_layers, n_slots, KV, n_heads, head_dim)


def scale_shape(n_layers: int, n_slots: int, n_heads: int) -> Tuple[int, ...]:
    return (n_layers, n_slots, KV, n_heads)


def paged(shape: Tuple[int, ...], page_size: int) -> Tuple[int, ...]:
    n_layers, n_slots, *rest = shape
    assert n_slots % page_size == 0
    return (n_layers, n_slots // page_size, page_size, *rest)
