"""Attention geometry per tensor-parallel rank."""
from __future__ import annotations

import math

import torch

_CACHE_DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}


class AttnDims:
    """K carries the nope and rope parts; V has its own width."""

    def __init__(self, num_heads: int, qk_nope_head_dim: int, qk_rope_head_dim: int,
                 v_head_dim: int):
        self.num_heads = num_heads
        self.qk_nope_head_dim = qk_nope_head_dim
        self.qk_rope_head_dim = qk_rope_head_dim
        self.v_head_dim = v_head_dim

    @classmethod
    def from_hf(cls, hf: dict, tp_size: int) -> "AttnDims":
        return cls(
            num_heads=math.ceil(hf["num_attention_heads"] / tp_size),
            qk_nope_head_dim=hf["qk_nope_head_dim"],
            qk_rope_head_dim=hf["qk_rope_head_dim"],
            v_head_dim=hf["v_head_dim"],
        )

    @property
    def qk_head_dim(self) -> int:
        return self.qk_nope_head_dim + self.qk_rope_head_dim

    @property
    def head_dim(self) -> int:
        # what the attention backend calls head_dim (softmax scale, q/k width)
        return self.qk_head_dim


def cache_dtype(hf: dict, flag: str) -> torch.dtype:
    if flag == "auto":
        return {"bfloat16": torch.bfloat16, "float16": torch.float16}[hf["torch_dtype"]]
    return _CACHE_DTYPES[flag]
