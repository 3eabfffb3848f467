"""ggml tensor types used for the KV cache (block size in elements, bytes per block)."""
from typing import NamedTuple


class GGMLType(NamedTuple):
    name: str
    blck_size: int
    type_size: int


GGML_TYPES = {
    "f32": GGMLType("f32", 1, 4),
    "f16": GGMLType("f16", 1, 2),
    "bf16": GGMLType("bf16", 1, 2),
    "q8_0": GGMLType("q8_0", 32, 34),   # 32 int8 + fp16 delta
    "q4_0": GGMLType("q4_0", 32, 18),   # 32 nibbles + fp16 delta
    "q5_1": GGMLType("q5_1", 32, 24),
}


def ggml_row_size(type_name: str, ne: int) -> int:
    t = GGML_TYPES[type_name]
    assert ne % t.blck_size == 0, f"row of {ne} not a multiple of {t.name} block"
    return t.type_size * ne // t.blck_size
