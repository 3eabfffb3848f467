import torch

from kvstore.formats import row_dtype, row_elems


class Shelf:
    """Device KV shelf, page-first:
    k_pages / v_pages = [pages, depth, page_tokens, heads, row]"""

    def __init__(self, conf, device="cuda"):
        m, s = conf.model, conf.shelf
        self.depth = m.depth
        self.heads = max(1, m.kv_heads // conf.shard.tp)
        self.head_dim = m.head_dim
        self.page_tokens = s.page_tokens
        self.pages = s.pages
        self.k_format, self.v_format = s.k_format, s.v_format
        geo = (self.pages, self.depth, self.page_tokens, self.heads)
        self.k_pages = torch.empty(geo + (row_elems(self.k_format, self.head_dim),),
                                   dtype=row_dtype(self.k_format), device=device)
        self.v_pages = torch.empty(geo + (row_elems(self.v_format, self.head_dim),),
                                   dtype=row_dtype(self.v_format), device=device)

    @property
    def slots(self) -> int:
        return self.pages * self.page_tokens
