"""Page-major KV pool: [num_pages, num_layers, 2, page_size, kv_heads, head_dim].

Page-major means one page of every layer is contiguous, so a page can be
shipped to the peer with a single RDMA write.
"""
import json
from typing import Optional

import torch


def _dtype_name(dtype: torch.dtype) -> str:
    return str(dtype).replace("torch.", "")


class PagedKVPool:
    def __init__(self, num_pages: int, page_size: int, num_layers: int, num_kv_heads: int,
                 head_dim: int, kv_dtype: torch.dtype, scale_dtype: Optional[torch.dtype],
                 device: str) -> None:
        self.num_pages = num_pages
        self.page_size = page_size
        self.num_layers = num_layers
        self.num_kv_heads = num_kv_heads
        self.head_dim = head_dim
        self.kv_pages = torch.empty(
            (num_pages, num_layers, 2, page_size, num_kv_heads, head_dim),
            dtype=kv_dtype, device=device)
        if scale_dtype is not None:
            self.kv_scale_pages = torch.ones(
                (num_pages, num_layers, 2, page_size, num_kv_heads),
                dtype=scale_dtype, device=device)
        else:
            self.kv_scale_pages = torch.empty((0,), dtype=torch.float32, device=device)

    @property
    def num_tokens(self) -> int:
        return self.num_pages * self.page_size

    def describe(self) -> str:
        """Metadata advertised to the decode peer during the bootstrap handshake."""
        has_scales = self.kv_scale_pages.numel() > 0
        return json.dumps({
            "page_size": self.page_size,
            "num_layers": self.num_layers,
            "num_kv_heads": self.num_kv_heads,
            "head_dim": self.head_dim,
            "kv_dtype": _dtype_name(self.kv_pages.dtype),
            "scale_dtype": _dtype_name(self.kv_scale_pages.dtype) if has_scales else None,
            "page_bytes": self.kv_pages[0].nbytes + (self.kv_scale_pages[0].nbytes if has_scales else 0),
        })


class PrefillKVPool(PagedKVPool):
    """KV pool on the prefill instance; pages are registered with the transfer engine."""


class DecodeKVPool(PagedKVPool):
    """KV pool on the decode instance, sized from the prefill peer's advertisement."""

    @classmethod
    def from_peer_metadata(cls, blob: str, num_pages: int, device: str) -> "DecodeKVPool":
        meta = json.loads(blob)
        scale = getattr(torch, meta["scale_dtype"]) if meta["scale_dtype"] else None
        pool = cls(num_pages, meta["page_size"], meta["num_layers"], meta["num_kv_heads"],
                   meta["head_dim"], getattr(torch, meta["kv_dtype"]), scale, device)
        mine = pool.kv_pages[0].nbytes + (pool.kv_scale_pages[0].nbytes if scale else 0)
        if mine != meta["page_bytes"]:
            raise RuntimeError(f"page size mismatch with prefill peer: {mine} != {meta['page_bytes']}")
        return pool
