from typing import List

import torch

from lumen.kv_spec import AttnLayerSpec


class PagedLayerCache:
    """GPU paged KV cache: one [2, num_blocks, block_size, H, D] tensor per layer."""

    def __init__(self, specs: List[AttnLayerSpec], num_blocks: int, device="cuda"):
        self.specs = specs
        self.num_blocks = num_blocks
        self.block_size = specs[0].block_size
        self.kv_caches: List[torch.Tensor] = []
        for spec in specs:
            shape = (2, num_blocks, spec.block_size, spec.num_kv_heads, spec.head_size)
            self.kv_caches.append(torch.zeros(shape, dtype=spec.dtype, device=device))

    @classmethod
    def from_budget(cls, specs, budget_bytes: int, device="cuda"):
        per_block = sum(s.page_size_bytes for s in specs)
        return cls(specs, budget_bytes // per_block, device=device)
