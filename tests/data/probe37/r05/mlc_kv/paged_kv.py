"""Device paged KV cache for MLA models."""
from typing import Dict, List

import torch

from .spec import KV_DTYPES, MLAModelSpec, PagedKVConfig


class PagedLatentKVCache:
    """One stacked tensor ``pages``: [num_layers, num_pages, page_size, latent_width]."""

    def __init__(self, spec: MLAModelSpec, cfg: PagedKVConfig, device: str = "cuda"):
        self.num_layers = spec.num_hidden_layers
        self.page_size = cfg.page_size
        self.num_pages = cfg.num_pages
        self.dtype = KV_DTYPES[cfg.kv_dtype]
        self.pages = torch.zeros(
            (self.num_layers, self.num_pages, self.page_size, spec.latent_width),
            dtype=self.dtype, device=device)
        self.page_table: Dict[int, List[int]] = {}
        self.seq_len: Dict[int, int] = {}
        self._free_pages: List[int] = list(range(self.num_pages))

    @property
    def capacity_tokens(self) -> int:
        return self.num_pages * self.page_size

    def add_sequence(self, seq_id: int) -> None:
        self.page_table[seq_id] = []
        self.seq_len[seq_id] = 0

    def extend(self, seq_id: int, n_tokens: int) -> None:
        total = self.seq_len[seq_id] + n_tokens
        while len(self.page_table[seq_id]) * self.page_size < total:
            if not self._free_pages:
                raise RuntimeError("out of KV pages")
            self.page_table[seq_id].append(self._free_pages.pop())
        self.seq_len[seq_id] = total

    def remove_sequence(self, seq_id: int) -> None:
        self._free_pages.extend(self.page_table.pop(seq_id))
        self.seq_len.pop(seq_id)
