"""Offload tiers; subclasses register themselves by name."""
import functools
import operator
from typing import ClassVar, Dict, Type

import torch

from .layout import KVLayout


class OffloadTier:
    registry: ClassVar[Dict[str, Type["OffloadTier"]]] = {}
    tier_name: ClassVar[str] = ""

    def __init_subclass__(cls, name: str = "", **kwargs):
        super().__init_subclass__(**kwargs)
        if name:
            cls.tier_name = name
            OffloadTier.registry[name] = cls

    def __init__(self, layout: KVLayout, num_blocks: int, device="cpu"):
        self.layout = layout
        self.num_blocks = num_blocks
        self.device = torch.device(device)


class HostMemoryTier(OffloadTier, name="host"):
    """Pageable host memory: one flat byte buffer for all layers and blocks."""

    pinned: ClassVar[bool] = False

    def __init__(self, layout: KVLayout, num_blocks: int, device="cpu"):
        super().__init__(layout, num_blocks, device)
        per_block_elems = functools.reduce(operator.mul, layout.block_shape, 1)
        self.block_nbytes = per_block_elems * (torch.finfo(layout.dtype).bits // 8)
        total = layout.num_layers * num_blocks * self.block_nbytes
        pin = self.pinned and self.device.type == "cpu" and torch.cuda.is_available()
        self.kv_data = torch.empty(total, dtype=torch.uint8, device=self.device, pin_memory=pin)

    @property
    def num_tokens(self) -> int:
        return self.num_blocks * self.layout.block_size

    def slot(self, layer: int, block: int) -> torch.Tensor:
        start = (layer * self.num_blocks + block) * self.block_nbytes
        return self.kv_data[start : start + self.block_nbytes]

    def store(self, pool, layer: int, src_block: int, dst_block: int) -> None:
        src = pool.block_view(layer, src_block).contiguous().view(-1).view(torch.uint8)
        self.slot(layer, dst_block).copy_(src, non_blocking=True)


class PinnedHostTier(HostMemoryTier, name="pinned"):
    pinned = True
