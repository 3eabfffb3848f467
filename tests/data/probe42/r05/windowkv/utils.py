import torch


def _row_bytes(dtype, heads, dim):
    """Bytes of one token's K (or V) row for a single layer."""
    return torch.empty(0, dtype=dtype).element_size() * heads * dim
