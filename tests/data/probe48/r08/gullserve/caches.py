"""Prefill-side cache and the decode-side cache it streams into."""
from __future__ import annotations

from typing import Iterator

import torch

from .quant import KVQuantConfig

LayerTuple = tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]


class PrefillKVCache:
    """int8 K/V rows plus fp16 group scales, one set of tensors per layer."""

    def __init__(self, max_tokens: int, n_layers: int, heads_per_rank: int, head_dim: int,
                 quant: KVQuantConfig, device: str = "cuda") -> None:
        self.max_tokens = max_tokens
        self.heads_per_rank = heads_per_rank
        self.head_dim = head_dim
        self.quant = quant
        self.k_q, self.k_scales, self.v_q, self.v_scales = (
            list(buffers) for buffers in zip(*self._layers(n_layers, device))
        )

    def _layers(self, n_layers: int, device: str) -> Iterator[LayerTuple]:
        q = self.quant
        rows = (self.max_tokens, self.heads_per_rank)
        k_groups = q.groups(self.head_dim, q.k_group)
        v_groups = q.groups(self.head_dim, q.v_group)
        for _ in range(n_layers):
            yield (
                torch.empty((*rows, self.head_dim), dtype=q.storage, device=device),
                torch.empty((*rows, k_groups), dtype=q.scale_dtype, device=device),
                torch.empty((*rows, self.head_dim), dtype=q.storage, device=device),
                torch.empty((*rows, v_groups), dtype=q.scale_dtype, device=device),
            )


class DecodeKVCache:
    """Decode worker's cache; rows arrive from the prefill worker unchanged."""

    def __init__(self, capacity: int, n_layers: int, total_kv_heads: int, tp_size: int,
                 head_dim: int, quant: KVQuantConfig, device: str = "cuda") -> None:
        self.capacity = capacity
        # Ranks beyond the KV head count hold a replicated head.
        self.local_heads = -(-total_kv_heads // tp_size)
        self.head_dim = head_dim
        k_cols, v_cols = self.scale_cols(quant)
        self.k_q, self.k_scales, self.v_q, self.v_scales = [], [], [], []
        for _ in range(n_layers):
            self.k_q.append(torch.empty(self.row_shape(head_dim), dtype=quant.storage, device=device))
            self.k_scales.append(torch.empty(self.row_shape(k_cols), dtype=quant.scale_dtype, device=device))
            self.v_q.append(torch.empty(self.row_shape(head_dim), dtype=quant.storage, device=device))
            self.v_scales.append(torch.empty(self.row_shape(v_cols), dtype=quant.scale_dtype, device=device))

    def row_shape(self, width: int) -> list[int]:
        return [self.capacity, self.local_heads, width]

    def scale_cols(self, quant: KVQuantConfig) -> tuple[int, int]:
        return (self.head_dim // quant.k_group, self.head_dim // quant.v_group)
