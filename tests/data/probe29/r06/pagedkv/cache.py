"""GPU paged cache: per-layer K and V page tables."""
import torch

from .layout import KVLayout


class PagedKVCache:
    def __init__(self, pool_size, page_size, depth, heads, dim, dtype, layout=KVLayout.NHD,
                 device="cuda"):
        if pool_size % page_size:
            raise ValueError("pool_size must be a whole number of pages")
        self.pool_size = pool_size
        self.page_size = page_size
        self.num_pages = pool_size // page_size
        self.depth = depth
        self.heads = heads
        self.dim = dim
        self.dtype = dtype
        self.layout = KVLayout.parse(layout)
        self.device = device
        shape = (self.num_pages,) + self.layout.page_shape(page_size, heads, dim)
        self.key_pages = [torch.empty(shape, dtype=dtype, device=device) for _ in range(depth)]
        self.value_pages = [torch.empty(shape, dtype=dtype, device=device) for _ in range(depth)]

    def page_of(self, slot):
        return divmod(slot, self.page_size)

    def write_token(self, layer, slot, k, v):
        page, off = self.page_of(slot)
        if self.layout is KVLayout.NHD:
            self.key_pages[layer][page, off] = k
            self.value_pages[layer][page, off] = v
        else:
            self.key_pages[layer][page, :, off] = k
            self.value_pages[layer][page, :, off] = v
