import torch

from .settings import ServeSettings


class DevicePageTable:
    def __init__(self, s: ServeSettings, device="cuda"):
        self.s = s
        self.num_pages = s.gpu_pages
        # per layer: [K/V, page, slot-in-page, head, dim]
        page_shape = (2, s.gpu_pages, s.page_size, s.n_kv_heads, s.head_dim)
        self.kv_pages = []
        for _ in range(s.n_layers):
            self.kv_pages.append(torch.empty(page_shape, dtype=s.cache_dtype, device=device))
