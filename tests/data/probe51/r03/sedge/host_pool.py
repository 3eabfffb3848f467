"""Host tier for the attention layers only; Mamba state is never offloaded."""
from __future__ import annotations

import dataclasses

import torch

from .device_pool import HybridDevicePool


class AttnHostPool:
    def __init__(self, device_pool: HybridDevicePool, host_ratio: float,
                 page_size: int = 32, device: str = "cpu"):
        src = device_pool.storage
        slots = int(src.slots * host_ratio) // page_size * page_size
        self.storage = dataclasses.replace(src, slots=slots)
        heads, dim = self.storage.token_shape
        self.k_cache = {
            lid: torch.empty((slots // page_size, page_size, heads * dim),
                             dtype=self.storage.dtype, device=device)
            for lid in self.storage.layer_ids
        }
        self.v_cache = {
            lid: torch.empty((slots // page_size, page_size, heads * dim),
                             dtype=self.storage.dtype, device=device)
            for lid in self.storage.layer_ids
        }
