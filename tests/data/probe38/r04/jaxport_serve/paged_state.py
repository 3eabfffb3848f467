"""Device-resident latent KV pages.

The JAX version kept the cache as one array
    cache[layer, page, slot, latent_rank + rope_dim]
sharded on the page axis.  We keep that single stacked layout.
"""
from typing import Dict, List

import torch

from .spec import LatentAttnSpec, jnp_dtype


class PageTable:
    """Host-side page bookkeeping (was a jnp int32 array + free mask)."""

    def __init__(self, num_pages: int, page_size: int):
        self.page_size = page_size
        self.free: List[int] = list(range(num_pages - 1, -1, -1))
        self.owned: Dict[int, List[int]] = {}
        self.lengths: Dict[int, int] = {}

    def append_tokens(self, seq_id: int, n: int) -> List[int]:
        pages = self.owned.setdefault(seq_id, [])
        length = self.lengths.get(seq_id, 0) + n
        need = -(-length // self.page_size) - len(pages)
        if need > len(self.free):
            raise MemoryError("latent cache exhausted")
        for _ in range(need):
            pages.append(self.free.pop())
        self.lengths[seq_id] = length
        return pages

    def release(self, seq_id: int) -> None:
        self.free.extend(reversed(self.owned.pop(seq_id, [])))
        self.lengths.pop(seq_id, None)


class PagedLatentCache:
    def __init__(self, spec: LatentAttnSpec, device="cpu"):
        self.spec = spec
        self.dtype = jnp_dtype(spec.cache_dtype)
        itemsize = torch.empty(0, dtype=self.dtype, device="meta").element_size()
        page_bytes = spec.n_layers * spec.page_size * spec.cache_width * itemsize
        self.num_pages = spec.hbm_cache_bytes // page_bytes
        self.latent_pages = torch.zeros(
            (spec.n_layers, self.num_pages, spec.page_size, spec.cache_width),
            dtype=self.dtype, device=device,
        )
        self.page_table = PageTable(self.num_pages, spec.page_size)

    def update(self, layer: int, pages: torch.Tensor, slots: torch.Tensor,
               c_kv: torch.Tensor, k_rope: torch.Tensor) -> None:
        row = torch.cat([c_kv, k_rope], dim=-1)
        self.latent_pages[layer, pages, slots] = row.to(self.dtype)

    def gather(self, layer: int, pages: torch.Tensor) -> torch.Tensor:
        return self.latent_pages[layer, pages].flatten(0, 1)
