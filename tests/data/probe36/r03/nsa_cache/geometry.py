from dataclasses import dataclass
from typing import Tuple

import torch


@dataclass(frozen=True)
class SparseMLAConfig:
    # DeepSeek-V3.2-Exp
    num_hidden_layers: int = 61
    kv_lora_rank: int = 512
    qk_rope_head_dim: int = 64
    index_head_dim: int = 128
    index_n_heads: int = 64
    index_topk: int = 2048
    torch_dtype: torch.dtype = torch.bfloat16


def stage_layer_range(num_layers: int, pp_rank: int, pp_size: int) -> Tuple[int, int]:
    per_stage = (num_layers + pp_size - 1) // pp_size
    start = pp_rank * per_stage
    end = min(num_layers, start + per_stage)
    return start, end


@dataclass(frozen=True)
class SlotGeometry:
    """Per-slot sizes shared by everything that moves sparse-MLA KV around."""

    latent_dim: int
    index_head_dim: int
    kv_dtype: torch.dtype
    scale_block: int = 128
    scale_dtype: torch.dtype = torch.float32

    @classmethod
    def from_config(cls, cfg: SparseMLAConfig) -> "SlotGeometry":
        return cls(
            latent_dim=cfg.kv_lora_rank + cfg.qk_rope_head_dim,
            index_head_dim=cfg.index_head_dim,
            kv_dtype=cfg.torch_dtype,
        )

    @property
    def kv_bytes(self) -> int:
        return self.latent_dim * self.kv_dtype.itemsize

    @property
    def index_bytes(self) -> int:
        n_scales = self.index_head_dim // self.scale_block
        return self.index_head_dim + n_scales * self.scale_dtype.itemsize
