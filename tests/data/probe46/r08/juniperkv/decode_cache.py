"""KV cache on decode workers.

Decode attention runs the paged kernel with a single block layout, so K and
V blocks are allocated from one template shape and registered with the
transfer agent in (k, v) pairs.
"""
from __future__ import annotations

from functools import cached_property

import torch

from .geometry import BlockGeometry


class DecodeKVCache:
    def __init__(self, geom: BlockGeometry, layer_ids: list[int], device: str):
        self.geom = geom
        self.layer_ids = list(layer_ids)
        self.device = device
        self.k_cache: dict[int, torch.Tensor] = {}
        self.v_cache: dict[int, torch.Tensor] = {}
        for lid in self.layer_ids:
            self.k_cache[lid] = self._new_block_tensor()
            self.v_cache[lid] = self._new_block_tensor()

    @cached_property
    def block_template(self) -> torch.Size:
        return torch.Size(self.geom.k_shape)

    def _new_block_tensor(self) -> torch.Tensor:
        return torch.empty(self.block_template, dtype=self.geom.dtype, device=self.device)

    def transfer_descriptors(self) -> list[tuple[int, int]]:
        """(layer_id, bytes per block) for the K and V halves of every layer."""
        out = []
        for lid in self.layer_ids:
            for t in (self.k_cache[lid], self.v_cache[lid]):
                out.append((lid, t[0].numel() * t.element_size()))
        return out
