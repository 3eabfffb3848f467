from typing import List

import torch

from mlc_paged.serve.geometry import KVGeometry


class PagedKVCache:
    """Per-layer page tables: pages[l] is [num_pages, kv_heads, page_size, head_dim]."""

    def __init__(self, geom: KVGeometry, num_pages: int, page_size: int = 16,
                 device: str = "cuda") -> None:
        self.geom = geom
        self.num_pages = num_pages
        self.page_size = page_size
        h = geom.kv_heads_per_shard
        self.k_pages: List[torch.Tensor] = [
            torch.empty((num_pages, h, page_size, geom.head_dim), dtype=geom.dtype, device=device)
            for _ in range(geom.num_hidden_layers)]
        self.v_pages: List[torch.Tensor] = [
            torch.empty((num_pages, h, page_size, geom.v_head_dim), dtype=geom.dtype, device=device)
            for _ in range(geom.num_hidden_layers)]

    @property
    def num_layers(self) -> int:
        return self.geom.num_hidden_layers

    @property
    def num_tokens(self) -> int:
        return self.num_pages * self.page_size
