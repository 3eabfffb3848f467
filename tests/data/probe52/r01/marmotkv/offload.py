"""Pinned CPU tier that receives evicted latent pages from LatentSlabs."""
import math
from functools import partial

import torch

from .geometry import LatentGeometry


def _pinned_empty(shape, dtype, device):
    pin = torch.device(device).type == "cpu" and torch.cuda.is_available()
    return torch.empty(shape, dtype=dtype, device=device, pin_memory=pin)


class OffloadLatentTier:
    def __init__(self, geom: LatentGeometry, capacity: int, device="cpu"):
        self.geom = geom
        self.capacity = geom.padded(capacity)
        alloc = partial(_pinned_empty, dtype=geom.dtype, device=device)
        # compressed KV latent, one row per cached token
        shape = (self.capacity, geom.lora_rank)
        self.rows = [alloc(shape) for _ in range(geom.num_layers)]
        self.bytes_per_layer = math.prod(shape) * geom.dtype.itemsize

    def page_view(self, layer: int, page: int) -> torch.Tensor:
        p = self.geom.page_tokens
        return self.rows[layer][page * p : (page + 1) * p]

    @classmethod
    def mirroring(cls, slabs, ratio: float, device="cpu"):
        geom = slabs.geom._replace(page_tokens=max(slabs.geom.page_tokens, 64))
        return cls(geom, int(slabs.capacity * ratio), device=device)
