"""Frozen page specs; every tier sizes its blocks from one of these."""
from __future__ import annotations

from dataclasses import dataclass

import torch

STR_DTYPE_TO_TORCH_DTYPE = {
    "half": torch.half,
    "bfloat16": torch.bfloat16,
    "float": torch.float,
    "fp8": torch.uint8,
    "fp8_e4m3": torch.uint8,
    "fp8_e5m2": torch.uint8,
}


def get_dtype_size(dtype: torch.dtype) -> int:
    return torch.tensor([], dtype=dtype).element_size()


def cdiv(a: int, b: int) -> int:
    return -(-a // b)


@dataclass(frozen=True, kw_only=True)
class PagedAttnSpec:
    block_size: int
    num_kv_heads: int
    head_size: int
    dtype: torch.dtype

    @property
    def page_size_bytes(self) -> int:
        return 2 * self.block_size * self.num_kv_heads * self.head_size * get_dtype_size(self.dtype)

    @classmethod
    def from_configs(cls, model_cfg: dict, cache_cfg: dict, tp_size: int) -> "PagedAttnSpec":
        cache_dtype = cache_cfg["cache_dtype"]
        if cache_dtype == "auto":
            dtype = STR_DTYPE_TO_TORCH_DTYPE[model_cfg["torch_dtype"]]
        else:
            dtype = STR_DTYPE_TO_TORCH_DTYPE[cache_dtype]
        head_size = model_cfg.get("head_dim") or (
            model_cfg["hidden_size"] // model_cfg["num_attention_heads"])
        return cls(
            block_size=cache_cfg["block_size"],
            num_kv_heads=max(1, cdiv(model_cfg["num_key_value_heads"], tp_size)),
            head_size=head_size,
            dtype=dtype,
        )
