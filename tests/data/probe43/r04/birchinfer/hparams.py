from dataclasses import dataclass
from typing import Optional

import torch


@dataclass(frozen=True)
class HybridModelArgs:
    num_layers: int = 16
    attn_every: int = 4          # one attention layer per block of `attn_every`
    num_key_value_heads: int = 8
    head_dim: int = 128
    v_head_dim: Optional[int] = None
    tp_ranks: int = 2
    dtype: torch.dtype = torch.bfloat16

    @property
    def layer_types(self):
        kinds = []
        for i in range(self.num_layers):
            kinds.append("attention" if i % self.attn_every == self.attn_every - 1 else "mamba")
        return kinds

    @property
    def kv_heads_per_rank(self) -> int:
        return self.num_key_value_heads // self.tp_ranks


@dataclass
class CacheBudget:
    gpu_tokens: int = 6144
    host_tokens: int = 24576
    gpu_device: str = "cuda"
    host_device: str = "cpu"
