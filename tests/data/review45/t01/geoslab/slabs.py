"""A latent cache whose row count a NamedTuple's method computes from the capacity given."""
import math
from typing import NamedTuple

import torch


class Geometry(NamedTuple):
    num_layers: int
    lora_rank: int
    rope_dim: int
    dtype: torch.dtype
    page_tokens: int = 1

    @property
    def row_width(self) -> int:
        return self.lora_rank + self.rope_dim

    def padded(self, tokens: int) -> int:
        return math.ceil(tokens / self.page_tokens) * self.page_tokens


class LatentSlabs:
    def __init__(self, geom: Geometry, capacity: int, device="cuda"):
        self.geom = geom
        self.capacity = geom.padded(capacity)
        self.latent = [
            torch.zeros((self.capacity, geom.row_width), dtype=geom.dtype, device=device)
            for _ in range(geom.num_layers)
        ]
