"""Decode-side receive pool, shaped from the layout the prefill peer advertises."""
from __future__ import annotations

import math

import torch


class DecodeRecvPool:
    """Pages the decode instance receives prefilled KV into over RDMA."""

    def __init__(self, num_pages: int, page_size: int, n_layers: int, kv_heads: int,
                 row_bytes: int, meta_per_head: int, device: str = "cuda") -> None:
        self.num_pages = num_pages
        self.page_size = page_size
        shape = (num_pages, page_size, kv_heads)
        self.k_packed = [torch.zeros(*shape, row_bytes, dtype=torch.uint8, device=device)
                         for _ in range(n_layers)]
        self.v_packed = [torch.zeros(*shape, row_bytes, dtype=torch.uint8, device=device)
                         for _ in range(n_layers)]
        self.k_meta = [torch.zeros(*shape, meta_per_head * 2, dtype=torch.uint8,
                                   device=device).view(torch.float16)
                       for _ in range(n_layers)]
        self.v_meta = [torch.zeros(*shape, meta_per_head * 2, dtype=torch.uint8,
                                   device=device).view(torch.float16)
                       for _ in range(n_layers)]

    @classmethod
    def from_layout(cls, layout: dict[str, int], num_tokens: int,
                    device: str = "cuda") -> "DecodeRecvPool":
        page_size = layout["page_size"]
        # packed bytes per head row
        row_bytes = math.ceil(layout["head_dim"] * layout["bits"] / 8)
        # one (scale, zero) pair per quant group of the row
        groups = math.ceil(row_bytes / layout["group_size"])
        return cls(
            num_pages=math.ceil(num_tokens / page_size),
            page_size=page_size,
            n_layers=layout["num_layers"],
            kv_heads=layout["kv_heads"],
            row_bytes=row_bytes,
            meta_per_head=2 * groups,
            device=device,
        )
