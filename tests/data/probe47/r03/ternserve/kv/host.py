"""Host tier for MLA latents, laid out layer-first in one tensor."""
from __future__ import annotations

import torch

from .base import KVPoolBase
from .mla_pool import LatentTokenPool


class LatentHostPool(KVPoolBase):
    def __init__(self, device_pool: LatentTokenPool, host_mem_bytes: int, device: str = "cpu"):
        super().__init__(device_pool.dtype, device)
        self.device_pool = device_pool
        self.depth = device_pool.depth
        self.latent_dim = device_pool.latent_dim
        self.page_size = device_pool.page_size
        per_token = self.depth * device_pool.row_bytes
        tokens = host_mem_bytes // per_token
        self.capacity_tokens = tokens - tokens % self.page_size
        self._alloc()

    def _alloc(self) -> None:
        self.kv_buffer = torch.empty(
            (self.depth, self.capacity_tokens, 1, self.latent_dim),
            dtype=self.store_dtype, device=self.device,
        )

    def layer_buffer(self, layer_id: int) -> torch.Tensor:
        return self.kv_buffer[layer_id]

    def write_page(self, layer_id: int, host_idx: torch.Tensor, device_idx: torch.Tensor) -> None:
        self.kv_buffer[layer_id, host_idx] = self.device_pool.kv_buffer[layer_id][device_idx].cpu()
