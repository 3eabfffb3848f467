import torch

from .geometry import AttnGeometry


class PagedKVPool:
    def __init__(self, geom: AttnGeometry, num_pages: int, device="cuda"):
        self.geom = geom
        self.num_pages = num_pages
        k_shape = (num_pages, geom.page_tokens, geom.heads_per_rank, geom.head_width)
        v_shape = (num_pages, geom.page_tokens, geom.heads_per_rank, geom.value_dim)
        self.key_pages = [
            torch.empty(k_shape, dtype=geom.dtype, device=device) for _ in range(geom.layers)
        ]
        self.value_pages = [
            torch.empty(v_shape, dtype=geom.dtype, device=device) for _ in range(geom.layers)
        ]

    @property
    def capacity_tokens(self) -> int:
        return self.num_pages * self.geom.page_tokens
