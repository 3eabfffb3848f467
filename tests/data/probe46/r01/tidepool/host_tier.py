"""Pinned host tier stored as one flat byte arena (token-major layout).

Each token owns a contiguous ``token_stride`` byte record containing, for
every local layer, its K heads followed by its V heads.  That makes a
token range a single contiguous memcpy for the storage backend.
"""
from __future__ import annotations

import torch

from .spec import AttentionSpec


class HostKVArena:
    def __init__(self, spec: AttentionSpec, capacity: int, dtype: torch.dtype, device: str = "cpu"):
        self.spec = spec
        self.capacity = capacity
        self.dtype = dtype
        itemsize = torch.empty((), dtype=dtype, device="meta").element_size()
        self.head_bytes = spec.kv_heads * spec.head_dim * itemsize
        self.num_layers = len(spec.layer_ids)
        self.token_stride = self.num_layers * 2 * self.head_bytes
        self.arena = torch.empty(capacity * self.token_stride, dtype=torch.uint8, device=device)
        self._k = {lid: self._slice(i, 0) for i, lid in enumerate(spec.layer_ids)}
        self._v = {lid: self._slice(i, 1) for i, lid in enumerate(spec.layer_ids)}

    def _slice(self, local_layer: int, which: int) -> torch.Tensor:
        records = self.arena.view(self.capacity, self.num_layers, 2, self.head_bytes)
        raw = records[:, local_layer, which]
        return raw.view(self.dtype).unflatten(-1, (self.spec.kv_heads, self.spec.head_dim))

    @property
    def k_cache(self) -> dict[int, torch.Tensor]:
        return self._k

    @property
    def v_cache(self) -> dict[int, torch.Tensor]:
        return self._v

    def token_bytes(self) -> int:
        return self.token_stride
