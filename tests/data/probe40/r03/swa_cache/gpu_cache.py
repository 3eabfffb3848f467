"""Hybrid global/sliding-window KV cache on the accelerator."""
import torch

from .layers import split_layers
from .spec import KVGeometry


class HybridWindowCache:
    def __init__(self, geom: KVGeometry, num_layers: int, global_every: int,
                 full_slots: int, swa_slots: int, device="cuda"):
        self.geom = geom
        self.full_layers, self.swa_layers = split_layers(num_layers, global_every)
        self.full_slots = full_slots
        self.swa_slots = swa_slots
        shape = geom.slot_shape()
        dt = geom.torch_dtype
        self.full_kv = torch.stack(
            [torch.empty((full_slots,) + shape, dtype=dt, device=device) for _ in self.full_layers]
        )
        self.swa_kv = torch.stack(
            [torch.empty((swa_slots,) + shape, dtype=dt, device=device) for _ in self.swa_layers]
        )
        self._index = {lid: ("full", i) for i, lid in enumerate(self.full_layers)}
        self._index.update({lid: ("swa", i) for i, lid in enumerate(self.swa_layers)})

    def kv(self, layer_id: int):
        kind, i = self._index[layer_id]
        buf = self.full_kv[i] if kind == "full" else self.swa_kv[i]
        return buf[:, 0], buf[:, 1]

    def write(self, layer_id: int, loc, k, v):
        kind, i = self._index[layer_id]
        buf = self.full_kv[i] if kind == "full" else self.swa_kv[i]
        buf[loc, 0] = k
        buf[loc, 1] = v
