import torch

from .paged import PagedKVCache


class DiskSpillBuffer(PagedKVCache):
    """Pinned staging for spilling cold pages to NVMe.

    Each (layer, page) is a single flat byte row so it can be written with one pwrite.
    """

    pinned = True

    @classmethod
    def from_device(cls, cache: PagedKVCache, num_pages: int, device="cpu"):
        return cls(
            num_layers=cache.num_layers,
            num_kv_heads=cache.num_kv_heads,
            head_dim=cache.head_dim,
            page_size=cache.page_size,
            num_pages=num_pages,
            dtype=cache.dtype,
            device=device,
        )

    def token_bytes(self) -> int:
        return self.num_kv_heads * self.head_dim * self.dtype.itemsize

    def page_shape(self):
        return (self.num_layers, self.num_pages, self.page_size * self.token_bytes())

    def storage_dtype(self) -> torch.dtype:
        return torch.uint8

    def spill(self, cache: PagedKVCache, layer: int, src_page: int, dst_page: int):
        flat = cache.pages[layer, src_page].reshape(-1).view(torch.uint8)
        self.pages[layer, dst_page].copy_(flat)
