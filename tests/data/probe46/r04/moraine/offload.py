"""Host offload tier.

Uses larger blocks than the device so that a PCIe transfer moves at least
a few hundred KiB at a time; blocks are token-major with K and V interleaved
per token.
"""
from __future__ import annotations

import torch

from .shapes import LayerSplit, TierShape

HOST_BLOCK_TOKENS = 64


class HostOffloadTier:
    def __init__(self, split: LayerSplit, full: TierShape, window: TierShape, device: str = "cpu"):
        self.split = split
        self.global_kv: list[torch.Tensor] = []
        self.local_kv: list[torch.Tensor] = []
        for target, ids, shape in ((self.global_kv, split.global_ids, full),
                                   (self.local_kv, split.local_ids, window)):
            dims = (shape.num_blocks, shape.block_tokens, 2, shape.kv_heads, shape.head_dim)
            alloc_shape: tuple[int, ...] = ()
            for d in dims:
                alloc_shape += (int(d),)
            for _ in ids:
                target.append(torch.empty(alloc_shape, dtype=shape.dtype, device=device, pin_memory=False))

    @classmethod
    def rebucket(cls, shape: TierShape, host_tokens: int) -> TierShape:
        """Re-express a device geometry in host-sized blocks."""
        blocks = -(-host_tokens // HOST_BLOCK_TOKENS)
        return shape._replace(num_blocks=blocks, block_tokens=HOST_BLOCK_TOKENS)
