"""Frozen cache geometry shared by every component of a worker."""
from dataclasses import dataclass, field

import torch


@dataclass(frozen=True)
class CacheSpec:
    n_layer: int = 4
    n_head_kv: int = 8
    d_head: int = 64
    tp_world: int = 4
    block_size: int = 16
    n_blocks: int = 8
    dtype: torch.dtype = torch.float16
    tags: dict = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self):
        if self.n_head_kv % self.tp_world:
            raise ValueError(f"{self.n_head_kv} kv heads do not split over tp={self.tp_world}")

    @property
    def heads_per_rank(self) -> int:
        return self.n_head_kv // self.tp_world

    @property
    def token_capacity(self) -> int:
        return self.n_blocks * self.block_size

    @property
    def elem_bytes(self) -> int:
        return torch.empty((), dtype=self.dtype).element_size()

    @property
    def bytes_per_token_layer(self) -> int:
        """K and V for one token in one layer on this rank."""
        return 2 * self.heads_per_rank * self.d_head * self.elem_bytes
