"""Prefill-side GPU pool: paged byte rows, one row per token per layer."""
from __future__ import annotations

import torch

from ..layout import LayoutSpec


class PackedLatentPool:
    def __init__(self, spec: LayoutSpec, depth: int, n_pages: int, page_size: int,
                 device: str = "cuda"):
        self.spec = spec
        self.depth = depth
        self.n_pages = n_pages
        self.page_size = page_size
        self.row_bytes = spec.bytes_per_token
        self.kv_buffer = [
            torch.zeros((n_pages, page_size, self.row_bytes), dtype=torch.uint8, device=device)
            for _ in range(depth)
        ]

    def page_bytes(self) -> int:
        return self.page_size * self.row_bytes

    def transfer_descriptors(self) -> list[tuple[int, int]]:
        return [(buf.data_ptr(), self.page_bytes()) for buf in self.kv_buffer]
