"""GPU-resident KV storage: one 5-D tensor per attention kind, layer axis first."""
from __future__ import annotations

import torch

from .config import ModelView

KV_AXIS = 1  # [layer, k/v, slot, head, dim]


def resolve_kv_dtype(view: ModelView, kv_cache_dtype: str) -> torch.dtype:
    name = view.model_dtype_name if kv_cache_dtype == "auto" else kv_cache_dtype
    return getattr(torch, name)


class WindowedKVPool:
    def __init__(self, view: ModelView, max_tokens: int, max_running: int,
                 kv_cache_dtype: str = "auto", device: str = "cuda"):
        kinds = view.layer_kinds()
        self.global_layers = [i for i, k in enumerate(kinds) if k == "global"]
        self.local_layers = [i for i, k in enumerate(kinds) if k == "local"]
        self.dtype = resolve_kv_dtype(view, kv_cache_dtype)
        self.num_heads = view.kv_heads_per_rank
        self.head_dim = view.head_dim
        self.full_slots = max_tokens
        # a local layer never needs more than one window per running request
        self.local_slots = min(max_tokens, view.window * max_running)
        self.device = device

        self.full_kv = self._slab(len(self.global_layers), self.full_slots)
        self.swa_kv = self._slab(len(self.local_layers), self.local_slots)
        self._row = {lid: n for n, lid in enumerate(self.global_layers)}
        self._row.update({lid: n for n, lid in enumerate(self.local_layers)})

    def _slab(self, n_layers: int, slots: int) -> torch.Tensor:
        # slot 0 is the padding slot written by masked-out positions
        return torch.empty(
            (n_layers, 2, slots + 1, self.num_heads, self.head_dim),
            dtype=self.dtype,
            device=self.device,
        )

    def kv(self, layer_id: int):
        slab = self.full_kv if layer_id in self.global_layers else self.swa_kv
        row = slab[self._row[layer_id]]
        return row.select(0, 0), row.select(0, 1)
