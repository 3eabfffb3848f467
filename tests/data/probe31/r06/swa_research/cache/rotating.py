from typing import List, Sequence

import torch
from torch import Tensor

from swa_research.model_args import ModelArgs


class RotatingBufferCache:
    """Per-layer KV buffers for a mixed local/global attention stack.

    Local layers keep a ring buffer of ``sliding_window`` positions per
    sequence, global layers keep ``max_seq_len``. Keys and values share one
    tensor, ``(batch, capacity, n_kv_heads, head_dim, 2)``, so that the
    xFormers kernel can read both with a single gather.
    """

    __slots__ = ("n_kv_heads", "head_dim", "max_batch_size", "dtype", "device", "capacities", "_cache_kv", "seqlens")

    def __init__(self, args: ModelArgs, device: str = "cuda"):
        self.n_kv_heads = args.n_kv_heads
        self.head_dim = args.head_dim
        self.max_batch_size = args.max_batch_size
        self.dtype = args.dtype
        self.device = torch.device(device)
        self.capacities = args.layer_capacities()
        self._cache_kv: List[Tensor] = list(map(self._alloc, self.capacities))
        self.seqlens = torch.zeros(self.max_batch_size, dtype=torch.long, device=self.device)

    def _alloc(self, capacity: int) -> Tensor:
        return torch.empty(
            (self.max_batch_size, capacity, self.n_kv_heads, self.head_dim, 2),
            dtype=self.dtype,
            device=self.device,
        )

    @property
    def cache_kv(self) -> Sequence[Tensor]:
        return self._cache_kv

    @property
    def n_layers(self) -> int:
        return len(self._cache_kv)

    def capacity(self, layer_id: int) -> int:
        return self.capacities[layer_id]

    def keys(self, layer_id: int) -> Tensor:
        return self._cache_kv[layer_id][..., 0]

    def values(self, layer_id: int) -> Tensor:
        return self._cache_kv[layer_id][..., 1]

    def update(self, layer_id: int, positions: Tensor, xk: Tensor, xv: Tensor) -> None:
        cap = self.capacities[layer_id]
        slots = positions % cap
        cache = self._cache_kv[layer_id]
        cache[:, slots, :, :, 0] = xk
        cache[:, slots, :, :, 1] = xv
