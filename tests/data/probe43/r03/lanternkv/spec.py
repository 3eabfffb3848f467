import enum
from typing import NamedTuple

import torch


class CacheLayout(enum.Enum):
    PER_HEAD = "per_head"
    LATENT = "latent"


class ModelGeometry(NamedTuple):
    depth: int = 8
    kv_lora_rank: int = 512
    qk_nope_head_dim: int = 128
    qk_rope_head_dim: int = 64
    v_head_dim: int = 128
    num_heads: int = 16
    dtype: torch.dtype = torch.bfloat16


class PoolSpec(NamedTuple):
    geometry: ModelGeometry
    layout: CacheLayout = CacheLayout.LATENT
    page_tokens: int = 64
    num_pages: int = 128
    device: str = "cuda"

    @property
    def token_slots(self) -> int:
        return self.page_tokens * self.num_pages
