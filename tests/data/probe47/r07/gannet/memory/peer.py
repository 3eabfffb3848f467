"""Decode-side pool that receives latent pages from prefill instances."""
from __future__ import annotations

from typing import Any, Mapping

import torch

from ..layout import LayoutSpec, select_layout


class DecodeLatentPool:
    def __init__(self, spec: LayoutSpec, depth: int, n_pages: int, page_size: int,
                 device: str = "cuda"):
        self.spec = spec
        self.depth = depth
        self.page_size = page_size
        row = spec.bytes_per_token
        self.kv_buffer = [
            torch.zeros((n_pages, page_size, row), dtype=torch.uint8, device=device)
            for _ in range(depth)
        ]

    def page_bytes(self) -> int:
        return self.kv_buffer[0][0].nbytes


def build_decode_peer(cfg: Mapping[str, Any], kv_cache_dtype: str, n_pages: int,
                      page_size: int, device: str = "cuda") -> DecodeLatentPool:
    spec = select_layout(cfg, kv_cache_dtype)
    return DecodeLatentPool(spec, cfg["num_hidden_layers"], n_pages, page_size, device=device)
