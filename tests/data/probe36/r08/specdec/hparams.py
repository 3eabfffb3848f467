from typing import NamedTuple

import torch


class HParams(NamedTuple):
    # Llama-3.1-70B target; the EAGLE head reuses its attention shape
    n_layer: int = 80
    n_embd: int = 8192
    n_head: int = 64
    n_kv_head: int = 8
    head_dim: int = 128
    kv_cache_dtype: str = "fp8"
    act_dtype: torch.dtype = torch.bfloat16


def divide(numerator: int, denominator: int) -> int:
    assert numerator % denominator == 0, f"{numerator} is not divisible by {denominator}"
    return numerator // denominator
