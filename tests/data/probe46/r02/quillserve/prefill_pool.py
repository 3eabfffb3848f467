"""Device-side latent KV pool used by prefill (and colocated) workers."""
from __future__ import annotations

import torch

from .arch import MLAArch
from .layout import LatentLayout


class LatentKVPool:
    """Three parallel per-layer buffers: latent, rope and latent scales."""

    def __init__(self, arch: MLAArch, layout: LatentLayout, num_slots: int, device: str):
        self.arch = arch
        self.layout = layout
        self.num_slots = num_slots
        layers = arch.num_layers + arch.num_nextn_layers
        rows = num_slots + 1  # row 0 is the padding slot
        self.latent_cache = [torch.empty((rows, layout.latent_dim), dtype=layout.latent_dtype, device=device)
                             for _ in range(layers)]
        self.rope_cache = [torch.empty((rows, layout.rope_dim), dtype=layout.rope_dtype, device=device)
                           for _ in range(layers)]
        self.kv_scale = [torch.empty((rows, max(layout.scale_groups, 1)), dtype=layout.scale_dtype, device=device)
                         for _ in range(layers)]

    def buffers_for_transfer(self) -> list[list[torch.Tensor]]:
        """Buffers registered with the transfer engine, in wire order."""
        return [self.latent_cache, self.rope_cache, self.kv_scale]
