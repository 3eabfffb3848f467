"""Device paged KV cache backed by a single byte arena."""
import torch

from .layout import kv_dtype, page_nbytes, page_shape


class PagedKVCache:
    """All layers live in one uint8 arena; ``pages[i]`` is layer ``i``'s view of
    shape ``(num_pages, 2, num_kv_heads, page_size, head_dim)``."""

    def __init__(self, cfg, device="cuda"):
        self.cfg = cfg
        self.num_layers = cfg["num_hidden_layers"]
        self.num_pages = cfg["num_pages"]
        self.page_size = cfg["page_size"]
        layer_bytes = self.num_pages * page_nbytes(cfg)
        self.arena = torch.empty(self.num_layers * layer_bytes, dtype=torch.uint8, device=device)
        self.pages = [
            self.arena[i * layer_bytes:(i + 1) * layer_bytes].view(kv_dtype(cfg)).view(self.num_pages, *page_shape(cfg))
            for i in range(self.num_layers)
        ]
        self.free_pages = list(range(self.num_pages - 1, -1, -1))

    def alloc_page(self):
        return self.free_pages.pop()

    def release_pages(self, page_ids):
        self.free_pages.extend(page_ids)

    def attention_inputs(self, layer_id, page_ids):
        return self.pages[layer_id][page_ids]
