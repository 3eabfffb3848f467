from typing import List

import torch

from .spec import KVCacheSpec


class PagedKVCache:
    """Paged KV cache with fp8 entries and a per-(token, head) scale.

    Page layout per layer: ``kv_data[page, kv, head, slot, dim]`` and
    ``kv_scales[page, kv, head, slot]``.
    """

    def __init__(self, spec: KVCacheSpec, device: str = "cuda"):
        self.spec = spec
        self.page_size = spec.page_size
        self.num_pages = spec.num_total_pages
        data_shape = torch.Size((self.num_pages, 2, spec.num_kv_heads, spec.page_size, spec.head_dim))
        self.kv_data: List[torch.Tensor] = []
        self.kv_scales: List[torch.Tensor] = []
        for _ in range(spec.num_layers):
            self.kv_data.append(torch.empty(data_shape, dtype=spec.kv_dtype, device=device))
            self.kv_scales.append(torch.ones(data_shape[:-1], dtype=spec.scale_dtype, device=device))
        self.free_pages = list(range(self.num_pages))

    def page_tokens(self, layer: int, page: int) -> torch.Tensor:
        # (kv, head, slot, dim) -> (slot, kv, head, dim)
        return self.kv_data[layer][page].permute(2, 0, 1, 3)

    def page_scales(self, layer: int, page: int) -> torch.Tensor:
        return self.kv_scales[layer][page].permute(2, 0, 1)
