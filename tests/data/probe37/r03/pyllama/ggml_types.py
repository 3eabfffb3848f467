"""GGML tensor types used for the KV cache and their storage traits."""
from enum import IntEnum

import torch


class GGMLType(IntEnum):
    F32 = 0
    F16 = 1
    Q4_0 = 2
    Q4_1 = 3
    Q5_0 = 6
    Q5_1 = 7
    Q8_0 = 8
    BF16 = 30


# (elements per block, bytes per block)
_TYPE_TRAITS = {
    GGMLType.F32: (1, 4),
    GGMLType.F16: (1, 2),
    GGMLType.Q4_0: (32, 18),
    GGMLType.Q4_1: (32, 20),
    GGMLType.Q5_0: (32, 22),
    GGMLType.Q5_1: (32, 24),
    GGMLType.Q8_0: (32, 34),
    GGMLType.BF16: (1, 2),
}

TORCH_DTYPE = {
    GGMLType.F32: torch.float32,
    GGMLType.F16: torch.float16,
    GGMLType.BF16: torch.bfloat16,
}


def ggml_blck_size(t: GGMLType) -> int:
    return _TYPE_TRAITS[t][0]


def ggml_type_size(t: GGMLType) -> int:
    return _TYPE_TRAITS[t][1]


def ggml_is_quantized(t: GGMLType) -> bool:
    return ggml_blck_size(t) > 1


def ggml_row_size(t: GGMLType, ne: int) -> int:
    """Bytes needed for a row of ``ne`` elements of type ``t``."""
    assert ne % ggml_blck_size(t) == 0
    return ggml_type_size(t) * ne // ggml_blck_size(t)
