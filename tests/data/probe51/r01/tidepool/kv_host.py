"""Host tier: token-major rows, one flat (k|v) row per token and layer."""
from __future__ import annotations

import torch

from .config import ModelView


class WindowedHostMirror:
    def __init__(self, view: ModelView, host_tokens: int, host_local_tokens: int,
                 kv_cache_dtype: str = "auto", device: str = "cpu",
                 pin_memory: bool = False):
        kinds = view.layer_kinds()
        n_global = kinds.count("global")
        n_local = len(kinds) - n_global
        dtype_name = kv_cache_dtype if kv_cache_dtype != "auto" else view.model_dtype_name
        self.dtype = getattr(torch, dtype_name)
        width = 2 * view.kv_heads_per_rank * view.head_dim

        self.full_kv = torch.empty((host_tokens, n_global, width), dtype=self.dtype,
                                   device=device, pin_memory=pin_memory)
        self.swa_kv = torch.empty((host_local_tokens, n_local, width), dtype=self.dtype,
                                  device=device, pin_memory=pin_memory)
        self.capacity = {"global": host_tokens, "local": host_local_tokens}
