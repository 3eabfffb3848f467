"""Cache settings derived from the checkpoint config and launch flags."""
from __future__ import annotations

from dataclasses import dataclass, field

import torch


@dataclass
class CacheSettings:
    hf: dict = field(repr=False)
    tp_size: int = 1
    quant_group: int = 64
    gpu_mem_fraction: float = 0.9

    @property
    def num_layers(self) -> int:
        return self.hf["num_hidden_layers"]

    @property
    def kv_heads(self) -> int:
        return max(1, self.hf["num_key_value_heads"] // self.tp_size)

    @property
    def head_dim(self) -> int:
        return self.hf.get("head_dim") or self.hf["hidden_size"] // self.hf["num_attention_heads"]

    @property
    def groups_per_head(self) -> int:
        return self.head_dim // self.quant_group

    @property
    def qparam_dtype(self) -> torch.dtype:
        """Scale and zero point are kept in the activation dtype."""
        return torch.bfloat16 if self.hf.get("torch_dtype") == "bfloat16" else torch.float16

    @property
    def param_shape(self) -> tuple:
        # (scale, zero) per quantisation group
        return (self.kv_heads, self.groups_per_head, 2)
