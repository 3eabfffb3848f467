"""Minimal ggml type traits: (block size in elements, bytes per block)."""
from collections import namedtuple

import torch

TypeTraits = namedtuple("TypeTraits", ["blck_size", "type_size", "is_quantized"])

GGML_TYPE_TRAITS = {
    "f32": TypeTraits(1, 4, False),
    "f16": TypeTraits(1, 2, False),
    "bf16": TypeTraits(1, 2, False),
    "q8_0": TypeTraits(32, 34, True),   # 32 x int8 + fp16 delta
    "q4_0": TypeTraits(32, 18, True),   # 32 x 4bit + fp16 delta
}


def ggml_row_size(type_name: str, ne: int) -> int:
    t = GGML_TYPE_TRAITS[type_name]
    assert ne % t.blck_size == 0, f"row of {ne} not a multiple of {t.blck_size}"
    return t.type_size * ne // t.blck_size


def ggml_type_sizef(type_name: str) -> float:
    t = GGML_TYPE_TRAITS[type_name]
    return t.type_size / t.blck_size


def torch_storage_dtype(type_name: str) -> torch.dtype:
    """Dtype used to back a ggml tensor: quantized types live in raw bytes."""
    if GGML_TYPE_TRAITS[type_name].is_quantized:
        return torch.uint8
    return {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}[type_name]
