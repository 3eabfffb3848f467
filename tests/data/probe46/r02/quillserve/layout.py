"""Per-token latent layout for the MLA cache.

With an FP8 cache the compressed latent is stored as e4m3 with one fp32
scale per ``FP8_BLOCK`` contiguous latent channels; the decoupled rope
part always stays in bf16 because quantising it hurts long-context recall.
"""
from __future__ import annotations

from typing import NamedTuple

import torch

FP8_BLOCK = 128


class LatentLayout(NamedTuple):
    latent_dim: int
    latent_dtype: torch.dtype
    rope_dim: int
    rope_dtype: torch.dtype
    scale_groups: int
    scale_dtype: torch.dtype = torch.float32


class LayoutPlanner:
    """Central place that decides how one token of latent KV is stored."""

    @staticmethod
    def plan(arch, kv_cache_dtype: str) -> LatentLayout:
        if kv_cache_dtype in ("fp8", "fp8_e4m3"):
            block = getattr(arch, "kv_quant_block", FP8_BLOCK)
            return LatentLayout(
                latent_dim=arch.kv_lora_rank,
                latent_dtype=torch.float8_e4m3fn,
                rope_dim=arch.qk_rope_head_dim,
                rope_dtype=torch.bfloat16,
                scale_groups=arch.kv_lora_rank // block,
            )
        return LatentLayout(arch.kv_lora_rank, torch.bfloat16, arch.qk_rope_head_dim,
                            torch.bfloat16, scale_groups=0)
