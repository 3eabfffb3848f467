"""GPU KV pool stored as one stacked tensor: [depth, 2, num_slots + page, heads, head_dim]."""
from __future__ import annotations

import torch

from .dtypes import itemsize


class StackedKVPool:
    """All layers' K and V live in a single allocation, layer dimension first."""

    def __init__(self, num_slots: int, depth: int, head_num: int, head_dim: int,
                 dtype: torch.dtype, page_size: int = 1, device: str = "cuda"):
        self.num_slots = num_slots
        self.depth = depth
        self.head_num = head_num
        self.head_dim = head_dim
        self.page_size = page_size
        self.device = device
        self._dtype = dtype
        # Slot 0..page_size-1 is reserved as the padding page for dummy writes.
        self.kv_data = torch.zeros(
            (depth, 2, num_slots + page_size, head_num, head_dim),
            dtype=dtype, device=device,
        )

    @property
    def dtype(self) -> torch.dtype:
        return self._dtype

    @property
    def token_stride_bytes(self) -> int:
        """Bytes for one token in one layer (K and V together)."""
        return 2 * self.head_num * self.head_dim * itemsize(self._dtype)

    def k_view(self, layer_id: int) -> torch.Tensor:
        return self.kv_data[layer_id, 0]

    def v_view(self, layer_id: int) -> torch.Tensor:
        return self.kv_data[layer_id, 1]

    def set_kv(self, layer_id: int, loc: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> None:
        self.kv_data[layer_id, 0, loc] = k.to(self._dtype)
        self.kv_data[layer_id, 1, loc] = v.to(self._dtype)
