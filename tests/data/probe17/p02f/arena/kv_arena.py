import torch

from .dtypes import resolve_kv_dtype


class KVArena:
    """Single stacked tensor: [2 (k/v), n_layers, slots, kv_heads, head_dim]."""

    def __init__(self, n_layers, slots, kv_heads, head_dim, kv_dtype="auto", device="cuda"):
        self.n_layers = n_layers
        self.slots = slots
        self.kv_heads = kv_heads
        self.head_dim = head_dim
        self.kv_dtype = kv_dtype
        self.dtype = resolve_kv_dtype(kv_dtype)
        self.kv_data = torch.zeros(
            (2, n_layers, slots, kv_heads, head_dim), dtype=self.dtype, device=device
        )

    def bytes_per_token(self):
        return 2 * self.n_layers * self.kv_heads * self.head_dim * self.kv_data.element_size()
