"""Device pool for MLA: one compressed latent (+ rope) row per token per layer."""
from __future__ import annotations

import torch

from .base import KVPoolBase


class LatentTokenPool(KVPoolBase):
    def __init__(self, num_slots: int, depth: int, latent_dim: int, dtype: torch.dtype,
                 page_size: int = 1, device: str = "cuda"):
        super().__init__(dtype, device)
        self.num_slots = num_slots
        self.depth = depth
        self.latent_dim = latent_dim
        self.page_size = page_size
        self._alloc()

    def _alloc(self) -> None:
        rows = self.num_slots + self.page_size
        self.kv_buffer = []
        for _ in range(self.depth):
            self.kv_buffer.append(
                torch.zeros((rows, 1, self.latent_dim), dtype=self.store_dtype, device=self.device)
            )

    def layer_buffer(self, layer_id: int) -> torch.Tensor:
        buf = self.kv_buffer[layer_id]
        return buf.view(self.dtype) if self.store_dtype != self.dtype else buf

    @property
    def row_bytes(self) -> int:
        return self.kv_buffer[0][0].nbytes
