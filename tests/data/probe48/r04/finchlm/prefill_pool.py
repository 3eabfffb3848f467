"""Prefill-side int4 KV pool."""
from __future__ import annotations

import math

import torch


class PrefillInt4Pool:
    """Asymmetric int4 K/V pages with an fp16 (scale, zero) pair per quant group.

    Two 4-bit values are packed per byte along head_dim. ``group_size`` counts
    head_dim elements (not packed bytes).
    """

    BITS = 4

    def __init__(self, num_tokens: int, page_size: int, n_layers: int, kv_heads: int,
                 head_dim: int, group_size: int, device: str = "cuda") -> None:
        if head_dim % group_size:
            raise ValueError("group_size must divide head_dim")
        self.page_size = page_size
        self.num_pages = math.ceil(num_tokens / page_size)
        self.kv_heads = kv_heads
        self.head_dim = head_dim
        self.group_size = group_size
        packed = head_dim * self.BITS // 8
        groups = head_dim // group_size
        self.k_packed, self.v_packed, self.k_meta, self.v_meta = [], [], [], []
        for _ in range(n_layers):
            self.k_packed.append(self._zeros(packed, torch.uint8, device))
            self.v_packed.append(self._zeros(packed, torch.uint8, device))
            self.k_meta.append(self._zeros(groups * 2, torch.float16, device))
            self.v_meta.append(self._zeros(groups * 2, torch.float16, device))

    def _zeros(self, width: int, dtype: torch.dtype, device: str) -> torch.Tensor:
        nbytes = width * dtype.itemsize
        raw = torch.zeros(self.num_pages, self.page_size, self.kv_heads, nbytes,
                          dtype=torch.uint8, device=device)
        return raw.view(dtype)

    def describe(self) -> dict[str, int]:
        """Layout advertised to decode instances during the bootstrap handshake."""
        return {
            "page_size": self.page_size,
            "kv_heads": self.kv_heads,
            "head_dim": self.head_dim,
            "bits": self.BITS,
            "group_size": self.group_size,
            "num_layers": len(self.k_packed),
        }
