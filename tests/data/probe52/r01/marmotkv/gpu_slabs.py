"""GPU-resident latent slabs, one per decoder layer."""
import math
from functools import partial

import torch

from .geometry import LatentGeometry


class LatentSlabs:
    def __init__(self, geom: LatentGeometry, capacity: int, device="cuda"):
        self.geom = geom
        # slot 0 of the first page is the padding sink for masked writes
        self.capacity = geom.padded(capacity)
        self.slots = self.capacity + geom.page_tokens
        make = partial(torch.zeros, dtype=geom.dtype, device=device)
        self.latent = [make((self.slots, geom.row_width)) for _ in range(geom.num_layers)]

    def layer(self, idx: int) -> torch.Tensor:
        return self.latent[idx]

    def split(self, idx: int):
        buf = self.latent[idx]
        return buf[..., : self.geom.lora_rank], buf[..., self.geom.lora_rank :]

    @property
    def total_bytes(self) -> int:
        return sum(math.prod(t.shape) * t.element_size() for t in self.latent)
