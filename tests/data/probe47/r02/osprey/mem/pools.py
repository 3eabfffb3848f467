"""Paged MHA/GQA KV pool on the accelerator."""
from __future__ import annotations

from typing import Any, Mapping

import torch

from .. import hf as hfcfg


class PagedMHAPool:
    """Per-layer K and V buffers of shape [n_slots + page_size, local_heads, head_dim]."""

    def __init__(self, hf: Mapping[str, Any], tp_size: int, n_slots: int,
                 dtype: torch.dtype, page_size: int = 1, device: str = "cuda"):
        self.n_slots = n_slots
        self.page_size = page_size
        self.dtype = dtype
        self.device = device
        self.n_layers = hfcfg.num_layers(hf)
        self.local_heads = max(1, hfcfg.total_kv_heads(hf) // tp_size)
        self.head_dim = hfcfg.head_dim(hf)
        self.k_buffer: list[torch.Tensor] = []
        self.v_buffer: list[torch.Tensor] = []
        for _ in range(self.n_layers):
            self.k_buffer.append(self._slab())
            self.v_buffer.append(self._slab())

    def _slab(self) -> torch.Tensor:
        return torch.zeros((self.n_slots + self.page_size, self.local_heads, self.head_dim),
                           dtype=self.dtype, device=self.device)

    def buffer_ptrs(self) -> list[int]:
        return [t.data_ptr() for t in self.k_buffer + self.v_buffer]

    def item_lens(self) -> list[int]:
        return [t[0].nbytes * self.page_size for t in self.k_buffer + self.v_buffer]
