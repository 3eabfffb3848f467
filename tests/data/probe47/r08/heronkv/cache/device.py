"""GPU pool keeping full-attention and sliding-window layers in separate token spaces."""
from __future__ import annotations

from types import SimpleNamespace

import torch

from .shapes import kv_slab_shape, swa_budget


class SplitWindowKVPool:
    def __init__(self, arch: SimpleNamespace, capacity_tokens: int, swa_ratio: float = 0.25,
                 page_size: int = 16, device: str = "cuda"):
        self.arch = arch
        self.page_size = page_size
        self.full_tokens = capacity_tokens
        self.swa_tokens = swa_budget(capacity_tokens, swa_ratio, page_size)
        self.full_kv: dict[int, torch.Tensor] = {}
        self.swa_kv: dict[int, torch.Tensor] = {}
        for layer_id in arch.full_layers:
            self.full_kv[layer_id] = self._slab(self.full_tokens, device)
        for layer_id in arch.swa_layers:
            self.swa_kv[layer_id] = self._slab(self.swa_tokens, device)

    def _slab(self, tokens: int, device: str) -> torch.Tensor:
        shape = kv_slab_shape(tokens, self.arch.kv_heads, self.arch.head_dim)
        return torch.zeros(shape, dtype=self.arch.dtype, device=device)

    @property
    def dtype(self) -> torch.dtype:
        return self.arch.dtype

    def host_kwargs(self) -> dict:
        return {
            "full_layers": list(self.full_kv),
            "swa_layers": list(self.swa_kv),
            "kv_heads": self.arch.kv_heads,
            "head_dim": self.arch.head_dim,
            "dtype": self.dtype,
            "swa_ratio": self.swa_tokens / self.full_tokens,
            "page_size": self.page_size,
        }
