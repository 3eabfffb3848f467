"""Device KV pool for the draft (EAGLE-style) head."""
import torch

from .geometry import DraftGeometry


class DraftKVPool:
    def __init__(self, geom: DraftGeometry, num_slots: int, device="cuda"):
        self.geom = geom
        self.num_slots = num_slots
        self.kv = torch.empty((geom.num_layers, num_slots) + geom.token_shape,
                              dtype=geom.dtype, device=device)
        self.layer_kv = [None] * geom.num_layers
        for i in range(geom.num_layers):
            self.layer_kv[i] = self.kv[i]

    def write(self, layer: int, loc: torch.Tensor, k: torch.Tensor, v: torch.Tensor):
        buf = self.layer_kv[layer]
        buf[loc, 0] = k
        buf[loc, 1] = v
