"""Tiny subset of ggml's type traits (block size in elements, bytes per block)."""
from enum import Enum


class GGMLType(Enum):
    F32 = "f32"
    F16 = "f16"
    BF16 = "bf16"
    Q8_0 = "q8_0"
    Q4_0 = "q4_0"
    Q5_1 = "q5_1"


_TRAITS = {
    GGMLType.F32: (1, 4),
    GGMLType.F16: (1, 2),
    GGMLType.BF16: (1, 2),
    GGMLType.Q8_0: (32, 34),
    GGMLType.Q4_0: (32, 18),
    GGMLType.Q5_1: (32, 24),
}


def blck_size(t: GGMLType) -> int:
    return _TRAITS[t][0]


def row_size(t: GGMLType, ne: int) -> int:
    bs, ts = _TRAITS[t]
    assert ne % bs == 0, f"row of {ne} not a multiple of block {bs}"
    return ne // bs * ts
