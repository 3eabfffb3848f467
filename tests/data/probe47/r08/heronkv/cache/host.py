"""Host tier for SplitWindowKVPool: one contiguous tensor per layer kind."""
from __future__ import annotations

import torch

from .shapes import kv_slab_shape, swa_budget


class HostSplitWindowPool:
    def __init__(self, host_tokens: int, *, full_layers: list[int], swa_layers: list[int],
                 kv_heads: int, head_dim: int, dtype: torch.dtype, swa_ratio: float,
                 page_size: int, device: str = "cpu"):
        self.full_tokens = host_tokens - host_tokens % page_size
        self.swa_tokens = swa_budget(self.full_tokens, swa_ratio, page_size)
        pin = torch.device(device).type == "cpu" and torch.cuda.is_available()
        full_shape = (len(full_layers),) + kv_slab_shape(self.full_tokens, kv_heads, head_dim)
        swa_shape = (len(swa_layers),) + kv_slab_shape(self.swa_tokens, kv_heads, head_dim)
        self._full = torch.empty(full_shape, dtype=dtype, device=device, pin_memory=pin)
        self._swa = torch.empty(swa_shape, dtype=dtype, device=device, pin_memory=pin)
        self.full_kv = {lid: self._full[i] for i, lid in enumerate(full_layers)}
        self.swa_kv = {lid: self._swa[i] for i, lid in enumerate(swa_layers)}
