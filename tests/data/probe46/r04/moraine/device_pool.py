"""Device pool: full-attention layers get the whole budget, sliding layers
only enough blocks for the window of every running request."""
from __future__ import annotations

import torch

from .shapes import LayerSplit, TierShape


class HybridWindowPool:
    def __init__(self, split: LayerSplit, full: TierShape, window: TierShape, device: str):
        self.split = split
        self.full = full
        self.window = window
        self.global_kv = [self._alloc(full, device) for _ in split.global_ids]
        self.local_kv = [self._alloc(window, device) for _ in split.local_ids]
        self.layer_to_slot = {lid: i for i, lid in enumerate(split.global_ids)}
        self.layer_to_slot.update({lid: i for i, lid in enumerate(split.local_ids)})

    @staticmethod
    def _alloc(shape: TierShape, device: str) -> torch.Tensor:
        # [num_blocks, 2 (k/v), block_tokens, heads, head_dim]
        return torch.empty((shape.num_blocks, 2, shape.block_tokens, shape.kv_heads, shape.head_dim),
                           dtype=shape.dtype, device=device)
