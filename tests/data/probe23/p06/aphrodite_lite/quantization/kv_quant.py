"""KV-cache quantisation parameters. int4 stores two nibbles per byte and a
(scale, zero) fp16 pair per group of `group_size` channels."""
import torch

KV_STORAGE_DTYPE = {
    "int4": torch.uint8,
    "int8": torch.int8,
    "fp8": torch.uint8,
}
VALUES_PER_ELEMENT = {"int4": 2, "int8": 1, "fp8": 1}


def packed_head_dim(head_dim: int, cache_dtype: str) -> int:
    per = VALUES_PER_ELEMENT[cache_dtype]
    assert head_dim % per == 0
    return head_dim // per


def scale_zero_dim(head_dim: int, group_size: int) -> int:
    # (scale, zero) per group
    return head_dim // group_size * 2
