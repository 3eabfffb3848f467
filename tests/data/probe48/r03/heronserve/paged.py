"""GPU paged KV pool and its host page tier."""
from __future__ import annotations

from dataclasses import dataclass

import torch


@dataclass
class PageSlab:
    """K and V pages of one layer."""

    k: torch.Tensor
    v: torch.Tensor


class PagedDevicePool:
    """Token-major pages: each layer holds ``(num_pages, page_size, kv_heads, head_dim)``."""

    def __init__(self, num_pages: int, page_size: int, depth: int, kv_heads: int,
                 head_dim: int, dtype: torch.dtype, device: str = "cuda") -> None:
        self.num_pages = num_pages
        self.page_size = page_size
        self.kv_heads = kv_heads
        self.head_dim = head_dim
        self.dtype = dtype
        shape = (num_pages, page_size, kv_heads, head_dim)
        self.layers = [
            PageSlab(k=torch.empty(shape, dtype=dtype, device=device),
                     v=torch.empty(shape, dtype=dtype, device=device))
            for _ in range(depth)
        ]

    @property
    def k_pages(self) -> list[torch.Tensor]:
        return [slab.k for slab in self.layers]

    @property
    def v_pages(self) -> list[torch.Tensor]:
        return [slab.v for slab in self.layers]


class HostPageTier:
    """Head-major host pages ``(num_pages, kv_heads, page_size, head_dim)``.

    The host keeps larger pages than the GPU so that a write-back covers several
    device pages with one contiguous copy per head.
    """

    def __init__(self, device_pool: PagedDevicePool, num_pages: int, page_size: int,
                 device: str = "cpu") -> None:
        if page_size % device_pool.page_size:
            raise ValueError("host page size must be a multiple of the device page size")
        self.num_pages = num_pages
        self.page_size = page_size
        shape = (num_pages, device_pool.kv_heads, page_size, device_pool.head_dim)
        self.layers = [
            PageSlab(k=torch.empty(shape, dtype=device_pool.dtype, device=device),
                     v=torch.empty(shape, dtype=device_pool.dtype, device=device))
            for _ in device_pool.layers
        ]

    @property
    def k_pages(self) -> list[torch.Tensor]:
        return [slab.k for slab in self.layers]

    @property
    def v_pages(self) -> list[torch.Tensor]:
        return [slab.v for slab in self.layers]
