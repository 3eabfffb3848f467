"""GPU cache: raw byte slabs per layer, reshaped to the attention kernel's view."""
from __future__ import annotations

import torch

from .spec import PagedAttnSpec


class FlashLayout:
    @staticmethod
    def get_kv_cache_shape(num_blocks: int, block_size: int, num_kv_heads: int,
                           head_size: int) -> tuple:
        return (2, num_blocks, block_size, num_kv_heads, head_size)


class GpuBlockCache:
    def __init__(self, spec: PagedAttnSpec, num_layers: int, available_bytes: int,
                 backend=FlashLayout, device: str = "cuda"):
        self.spec = spec
        self.num_blocks = available_bytes // (spec.page_size_bytes * num_layers)
        shape = backend.get_kv_cache_shape(self.num_blocks, spec.block_size,
                                           spec.num_kv_heads, spec.head_size)
        self.kv_caches = []
        for _ in range(num_layers):
            raw = torch.zeros(self.num_blocks * spec.page_size_bytes, dtype=torch.int8,
                              device=device)
            self.kv_caches.append(raw.view(spec.dtype).view(shape))
