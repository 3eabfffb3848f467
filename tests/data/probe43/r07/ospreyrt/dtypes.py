import torch

_TORCH_NAMES = {"bf16": "bfloat16", "fp16": "float16", "fp8": "float8_e4m3fn", "fp32": "float32"}
_ELEM_BYTES = {"bf16": 2, "fp16": 2, "fp8": 1, "fp32": 4}


def to_torch(tag: str) -> torch.dtype:
    return getattr(torch, _TORCH_NAMES[tag])


def elem_bytes(tag: str) -> int:
    return _ELEM_BYTES[tag]
