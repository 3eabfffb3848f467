"""Host tier for the packed latent cache.

The whole tier is one flat uint8 allocation; per-layer views are carved
out of it so a single ``cudaHostRegister`` call covers everything.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import torch

from .formats import KVFormat


@dataclass
class HostTierSettings:
    layout: str = "layer_first"
    ratio: float = 4.0
    device: str = "cpu"
    io_backend: dict[str, str] = field(default_factory=lambda: {"kind": "direct", "stream": "h2d"})


class LatentHostStore:
    def __init__(self, fmt: KVFormat, num_layers: int, kv_lora_rank: int, rope_dim: int,
                 num_tokens: int, device: str = "cpu"):
        self.stride = fmt.token_bytes(kv_lora_rank, rope_dim)
        self.num_layers = num_layers
        self.num_tokens = num_tokens
        self.arena = torch.empty(num_layers * num_tokens * self.stride, dtype=torch.uint8, device=device)
        self.kv_packed = self._views()

    def _views(self) -> list[torch.Tensor]:
        grid = self.arena.view(self.num_layers, self.num_tokens, self.stride)
        return [grid[i] for i in range(self.num_layers)]


class PageFirstLatentHostStore(LatentHostStore):
    """Token-major variant: one token's records for all layers are adjacent."""

    def _views(self) -> list[torch.Tensor]:
        grid = self.arena.view(self.num_tokens, self.num_layers, self.stride)
        return [grid[:, i] for i in range(self.num_layers)]


HOST_LAYOUTS: dict[str, type[LatentHostStore]] = {
    "layer_first": LatentHostStore,
    "page_first": PageFirstLatentHostStore,
}
