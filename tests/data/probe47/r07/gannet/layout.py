"""Per-token byte layouts for MLA latent caches."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import torch

_KV_DTYPES = {
    "auto": torch.bfloat16,
    "bfloat16": torch.bfloat16,
    "fp8_e4m3": torch.float8_e4m3fn,
}


def _size(dtype: torch.dtype) -> int:
    return torch.empty((), dtype=dtype, device="meta").element_size()


@dataclass(frozen=True)
class LayoutSpec:
    """Bytes one token occupies in one layer, split by component."""

    nope_dim: int
    rope_dim: int
    nope_dtype: torch.dtype
    rope_dtype: torch.dtype
    scale_group: int = 0  # 0 means no per-group scales

    @property
    def scale_bytes(self) -> int:
        if not self.scale_group:
            return 0
        return (self.nope_dim // self.scale_group) * _size(torch.float32)

    @property
    def bytes_per_token(self) -> int:
        return (self.nope_dim * _size(self.nope_dtype) + self.scale_bytes
                + self.rope_dim * _size(self.rope_dtype))

    @staticmethod
    def dense(cfg: Mapping[str, Any], dtype: torch.dtype) -> "LayoutSpec":
        return LayoutSpec(cfg["kv_lora_rank"], cfg["qk_rope_head_dim"], dtype, dtype)

    @staticmethod
    def flashmla_fp8(cfg: Mapping[str, Any]) -> "LayoutSpec":
        # FlashMLA sparse fp8 layout: fp8 latent, one fp32 scale per 128 values, bf16 rope.
        return LayoutSpec(cfg["kv_lora_rank"], cfg["qk_rope_head_dim"],
                          torch.float8_e4m3fn, torch.bfloat16, scale_group=128)


def select_layout(cfg: Mapping[str, Any], kv_cache_dtype: str,
                  attention_backend: str = "triton") -> LayoutSpec:
    dtype = _KV_DTYPES[kv_cache_dtype]
    if dtype == torch.float8_e4m3fn and attention_backend == "flashmla":
        return LayoutSpec.flashmla_fp8(cfg)
    return LayoutSpec.dense(cfg, dtype)
