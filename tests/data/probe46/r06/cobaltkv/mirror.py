"""CPU mirror of the KV arena used to swap preempted requests out."""
from __future__ import annotations

from typing import Any

import torch

from .heads import STR2DTYPE


class SwapMirror:
    def __init__(self, cfg: Any, tp_size: int, num_tokens: int, kv_dtype: str = "auto",
                 device: str = "cpu"):
        name = kv_dtype if kv_dtype != "auto" else getattr(cfg, "torch_dtype", "bfloat16")
        self.dtype = STR2DTYPE[name]
        total_kv = getattr(cfg, "num_key_value_heads", None) or cfg.num_attention_heads
        # ceil: a rank never holds a fraction of a head; heads are replicated
        self.heads = -(-total_kv // tp_size) if total_kv < tp_size else total_kv // tp_size
        self.head_dim = cfg.hidden_size // cfg.num_attention_heads if not hasattr(cfg, "head_dim") \
            else cfg.head_dim
        self.num_tokens = num_tokens
        self.keys: list[torch.Tensor] = []
        self.values: list[torch.Tensor] = []
        for _ in range(cfg.num_hidden_layers):
            self.keys.append(torch.empty((num_tokens, self.heads * self.head_dim), dtype=self.dtype, device=device))
            self.values.append(torch.empty((num_tokens, self.heads * self.head_dim), dtype=self.dtype, device=device))

    @property
    def layer_count(self) -> int:
        return len(self.keys)

    def get_kv(self, layer: int) -> tuple[torch.Tensor, torch.Tensor]:
        return self.keys[layer], self.values[layer]
