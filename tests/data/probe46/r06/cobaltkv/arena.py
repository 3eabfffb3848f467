"""GPU KV arena registered as non-trainable module parameters.

Keeping the cache in a ``ParameterList`` lets ``module.to()`` and the
CUDA-graph memory pool see it like any other weight.
"""
from __future__ import annotations

from typing import Any

import torch
from torch import nn

from .heads import STR2DTYPE, bytes_per_elem, head_dim_of, kv_heads_per_rank


class GpuKVArena(nn.Module):
    def __init__(self, cfg: Any, tp_size: int, num_tokens: int, kv_dtype: str = "auto",
                 device: str = "cuda"):
        super().__init__()
        self.dtype = STR2DTYPE[cfg.torch_dtype if kv_dtype == "auto" else kv_dtype]
        self.heads = kv_heads_per_rank(cfg, tp_size)
        self.head_dim = head_dim_of(cfg)
        self.num_tokens = num_tokens
        n_layers = getattr(cfg, "num_hidden_layers")
        mk = lambda: nn.Parameter(
            torch.empty(num_tokens, self.heads, self.head_dim, dtype=self.dtype, device=device),
            requires_grad=False)
        self.keys = nn.ParameterList([mk() for _ in range(n_layers)])
        self.values = nn.ParameterList([mk() for _ in range(n_layers)])

    @property
    def layer_count(self) -> int:
        return len(self.keys)

    def get_kv(self, layer: int) -> tuple[torch.Tensor, torch.Tensor]:
        return self.keys[layer], self.values[layer]

    def token_bytes(self) -> int:
        return 2 * self.layer_count * self.heads * self.head_dim * bytes_per_elem(self.dtype)
