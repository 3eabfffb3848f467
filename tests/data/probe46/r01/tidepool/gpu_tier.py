"""GPU resident tier: one K and one V tensor per layer, keyed by layer id."""
from __future__ import annotations

import torch

from .spec import AttentionSpec


class GpuKVTier:
    """Token-granular KV storage on the accelerator.

    Slot 0 is reserved as the padding slot written by dummy tokens, so
    ``capacity + 1`` rows are allocated.
    """

    def __init__(self, spec: AttentionSpec, capacity: int, dtype: torch.dtype, device: str):
        self.spec = spec
        self.capacity = capacity
        self.dtype = dtype
        self.device = device
        rows = capacity + 1
        self._k: dict[int, torch.Tensor] = {}
        self._v: dict[int, torch.Tensor] = {}
        for lid in spec.layer_ids:
            self._k[lid] = torch.empty((rows, spec.kv_heads, spec.head_dim), dtype=dtype, device=device)
            self._v[lid] = torch.empty((rows, spec.kv_heads, spec.head_dim), dtype=dtype, device=device)

    @property
    def k_cache(self) -> dict[int, torch.Tensor]:
        return self._k

    @property
    def v_cache(self) -> dict[int, torch.Tensor]:
        return self._v

    def token_bytes(self) -> int:
        one = next(iter(self._k.values()))
        return 2 * len(self._k) * one[0].numel() * one.element_size()
