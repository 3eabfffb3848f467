"""GPU KV pool with separate slabs for global and sliding-window layers."""
from __future__ import annotations

from types import SimpleNamespace

import torch

from .arch import LayerKind, split_layers
from .shapes import DTYPES, KVShape


class HybridWindowPool:
    """Global layers get `capacity_tokens` rows; local layers get a smaller ring of rows."""

    def __init__(self, cfg: SimpleNamespace, tp_size: int, capacity_tokens: int,
                 local_tokens: int, device: str = "cuda"):
        self.dtype = DTYPES[getattr(cfg, "torch_dtype", "bfloat16")]
        self.device = device
        self.capacity_tokens = capacity_tokens
        self.local_tokens = local_tokens
        groups = split_layers(cfg)
        self.global_layers = groups[LayerKind.GLOBAL]
        self.local_layers = groups[LayerKind.LOCAL]
        g_shape = KVShape.slab(capacity_tokens, cfg, tp_size)
        l_shape = KVShape.slab(local_tokens, cfg, tp_size)
        self.global_k = [self._new(g_shape) for _ in self.global_layers]
        self.global_v = [self._new(g_shape) for _ in self.global_layers]
        self.local_k = [self._new(l_shape) for _ in self.local_layers]
        self.local_v = [self._new(l_shape) for _ in self.local_layers]

    def _new(self, shape: tuple[int, ...]) -> torch.Tensor:
        return torch.zeros(shape, dtype=self.dtype, device=self.device)

    def buffers_for(self, layer_id: int) -> tuple[torch.Tensor, torch.Tensor]:
        if layer_id in self.global_layers:
            i = self.global_layers.index(layer_id)
            return self.global_k[i], self.global_v[i]
        i = self.local_layers.index(layer_id)
        return self.local_k[i], self.local_v[i]
