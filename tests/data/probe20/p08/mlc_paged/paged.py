import torch

from .dtypes import KVDType


class PagedKVCache:
    """Mixtral-8x7B KV pages: [layers, pages, K|V, kv_heads, page_size, head_dim]."""

    pinned = False

    def __init__(self, num_layers=32, num_kv_heads=8, head_dim=128, page_size=16,
                 num_pages=8192, dtype=KVDType.F16, device="cuda"):
        self.num_layers = num_layers
        self.num_kv_heads = num_kv_heads
        self.head_dim = head_dim
        self.page_size = page_size
        self.num_pages = num_pages
        self.dtype = dtype
        pin = self.pinned and torch.device(device).type == "cpu" and torch.cuda.is_available()
        self.pages = torch.zeros(
            self.page_shape(), dtype=self.storage_dtype(), device=device, pin_memory=pin
        )

    def page_shape(self):
        return (self.num_layers, self.num_pages, 2, self.num_kv_heads, self.page_size, self.head_dim)

    def storage_dtype(self) -> torch.dtype:
        return self.dtype.as_torch

    def append(self, layer: int, page: int, offset: int, k: torch.Tensor, v: torch.Tensor):
        self.pages[layer, page, 0, :, offset] = k
        self.pages[layer, page, 1, :, offset] = v
