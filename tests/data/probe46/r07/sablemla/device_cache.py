"""Paged device cache holding one packed uint8 record per token."""
from __future__ import annotations

import math

import torch

from .formats import KVFormat


class PackedLatentCache:
    """``kv_packed[layer]`` is ``[num_pages, page_tokens, record_bytes]`` uint8."""

    def __init__(self, fmt: KVFormat, num_layers: int, kv_lora_rank: int, rope_dim: int,
                 num_pages: int, page_tokens: int = 64, device: str = "cuda"):
        self.fmt = fmt
        self.num_pages = num_pages
        self.page_tokens = page_tokens
        self.record_bytes = sum(math.prod(shape) * dtype.itemsize
                                for shape, dtype in fmt.components(kv_lora_rank, rope_dim))
        self.kv_packed = [
            torch.empty((num_pages, page_tokens, self.record_bytes), dtype=torch.uint8, device=device)
            for _ in range(num_layers)
        ]

    @property
    def num_tokens(self) -> int:
        return self.num_pages * self.page_tokens
