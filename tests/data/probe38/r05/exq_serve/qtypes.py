import torch

_NAMED = {
    "fp16": torch.float16,
    "fp32": torch.float32,
    "uint8": torch.uint8,
}

# bits per stored element for each cache flavour
CACHE_BITS = {"fp16": 16, "q8": 8, "q6": 6, "q4": 4}


def named_dtype(name: str) -> torch.dtype:
    return _NAMED[name]


def packed_width(head_dim: int, mode: str) -> int:
    """Number of uint8 bytes one head row occupies after packing."""
    bits = CACHE_BITS[mode]
    assert (head_dim * bits) % 8 == 0
    return head_dim * bits // 8
