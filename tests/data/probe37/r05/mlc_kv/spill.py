"""Host spill tier for prefix-cache pages evicted from HBM."""
from typing import Dict

import torch

from .spec import MLAModelSpec, PagedKVConfig


class HostSpillTier:
    """Pages shaped [num_spill_pages, num_layers, page_size, latent + rope] so that a
    demotion copies one (layer, page) slab at a time."""

    storage_dtype: torch.dtype = torch.bfloat16

    def __init__(self, spec: MLAModelSpec, cfg: PagedKVConfig, device: str = "cpu"):
        self.page_size = cfg.page_size
        self.num_pages = cfg.num_spill_pages
        self.num_layers = spec.num_hidden_layers
        slab = (self.page_size, spec.kv_lora_rank + spec.qk_rope_head_dim)
        self.pages = torch.empty((self.num_pages, self.num_layers, *slab),
                                 dtype=self.storage_dtype, device=device)
        self.resident: Dict[int, int] = {}  # prefix hash -> spill page
        self._next = 0

    @property
    def capacity_tokens(self) -> int:
        return self.num_pages * self.page_size

    def demote(self, cache, page_id: int, prefix_hash: int) -> int:
        slot = self._next % self.num_pages
        self._next += 1
        for layer in range(self.num_layers):
            self.pages[slot, layer].copy_(cache.pages[layer, page_id])
        self.resident[prefix_hash] = slot
        return slot

    def promote(self, cache, prefix_hash: int, page_id: int) -> None:
        slot = self.resident.pop(prefix_hash)
        for layer in range(self.num_layers):
            cache.pages[layer, page_id].copy_(self.pages[slot, layer])
