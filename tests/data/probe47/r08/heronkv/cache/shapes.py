"""Shape helpers shared by the device and host pools."""
from __future__ import annotations


def kv_slab_shape(num_tokens: int, kv_heads: int, head_dim: int) -> tuple[int, int, int, int]:
    """K and V for one layer: [2, num_tokens, kv_heads, head_dim]."""
    return (2, num_tokens, kv_heads, head_dim)


def swa_budget(full_tokens: int, swa_ratio: float, page_size: int) -> int:
    tokens = int(full_tokens * swa_ratio)
    return max(page_size, tokens - tokens % page_size)
