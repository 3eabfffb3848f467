"""Row encodings used by the shelf. A row is one head of one token."""
import torch

FP32 = 4


def row_bytes(fmt: str, head_dim: int) -> int:
    if fmt == "fp8g128":
        return head_dim + head_dim // 128 * FP32
    if fmt == "bf16":
        return head_dim * 2
    raise ValueError(f"unknown row format {fmt}")


def row_dtype(fmt: str) -> torch.dtype:
    return torch.bfloat16 if fmt == "bf16" else torch.uint8


def row_elems(fmt: str, head_dim: int) -> int:
    return row_bytes(fmt, head_dim) // row_dtype(fmt).itemsize
