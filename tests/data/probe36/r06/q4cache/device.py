from typing import Optional

import torch

from .layout import KVLayout, Q4CacheConfig, packed_width


class PagedQ4Cache:
    """Paged asymmetric int4 KV cache; scale and zero point per (token, head)."""

    def __init__(self, cfg: Q4CacheConfig, device: str = "cuda"):
        self.cfg = cfg
        self.device = device
        self.n_layers = cfg.n_layers
        self.page_size = cfg.page_size
        self.num_pages = cfg.num_pages
        self.kv_data: Optional[torch.Tensor] = None
        self.kv_params: Optional[torch.Tensor] = None

    @property
    def seq_capacity(self) -> int:
        return self.num_pages * self.page_size

    def _page_shape(self, last: int):
        c = self.cfg
        if c.layout is KVLayout.HND:
            return (self.num_pages, 2, c.n_kv_heads, self.page_size, last)
        return (self.num_pages, 2, self.page_size, c.n_kv_heads, last)

    def reserve(self) -> "PagedQ4Cache":
        if self.kv_data is not None:
            return self
        c = self.cfg
        self.kv_data = torch.zeros(
            (self.n_layers, *self._page_shape(packed_width(c.head_dim, c.quant))),
            dtype=torch.uint8,
            device=self.device,
        )
        self.kv_params = torch.zeros(
            (self.n_layers, *self._page_shape(2)), dtype=c.param_dtype, device=self.device
        )
        return self
