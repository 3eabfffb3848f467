"""KV cache on prefill workers."""
from __future__ import annotations

import torch

from .geometry import BlockGeometry


class AsymKVCache:
    """Separate K and V block tensors per attention layer, keyed by layer id."""

    def __init__(self, geom: BlockGeometry, layer_ids: list[int], device: str):
        self.geom = geom
        self.k_cache: dict[int, torch.Tensor] = {
            lid: torch.empty(geom.k_shape, dtype=geom.dtype, device=device) for lid in layer_ids
        }
        self.v_cache: dict[int, torch.Tensor] = {
            lid: torch.empty(geom.v_shape, dtype=geom.dtype, device=device) for lid in layer_ids
        }

    def block_bytes(self, layer_id: int) -> int:
        k, v = self.k_cache[layer_id], self.v_cache[layer_id]
        return (k[0].numel() * k.element_size()) + (v[0].numel() * v.element_size())
