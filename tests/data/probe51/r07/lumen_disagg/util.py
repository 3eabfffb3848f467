"""Small sizing helpers."""
from __future__ import annotations

# head sizes the fused attention kernels are compiled for
KERNEL_HEAD_DIMS = (64, 128, 256)


def round_up(x: int, m: int) -> int:
    return (x + m - 1) // m * m


def padded_head_dim(head_dim: int) -> int:
    for size in KERNEL_HEAD_DIMS:
        if head_dim <= size:
            return size
    return round_up(head_dim, 64)
