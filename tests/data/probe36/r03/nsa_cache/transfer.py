from typing import Dict, Tuple

import torch

from .geometry import SlotGeometry


class DisaggTransferBuffer:
    """Registered staging region for prefill -> decode KV transfer.

    A single flat byte allocation (registered once with the transfer engine)
    is carved into per-layer latent and indexer regions.
    """

    def __init__(self, geometry: SlotGeometry, capacity: int, layer_range: Tuple[int, int], device: str):
        self.geometry = geometry
        self.capacity = capacity
        self.layer_range = layer_range
        self.num_layers = layer_range[1] - layer_range[0]
        per_layer = capacity * (geometry.kv_bytes + geometry.index_bytes)
        self.flat = torch.empty(
            per_layer * self.num_layers,
            dtype=torch.uint8,
            device=device,
            pin_memory=device not in ("meta", "cuda"),
        )
        self.kv: Dict[int, torch.Tensor] = {}
        self.index_k: Dict[int, torch.Tensor] = {}
        self._carve(per_layer)

    def _carve(self, per_layer: int):
        g = self.geometry
        kv_region = self.capacity * g.kv_bytes
        for i, layer_id in enumerate(range(*self.layer_range)):
            base = i * per_layer
            self.kv[layer_id] = (
                self.flat[base : base + kv_region].view(g.kv_dtype).view(self.capacity, g.latent_dim)
            )
            self.index_k[layer_id] = self.flat[base + kv_region : base + per_layer].view(
                self.capacity, g.index_bytes
            )

    def region_ptrs(self):
        return [(t.data_ptr(), t.nbytes) for t in list(self.kv.values()) + list(self.index_k.values())]
