"""Model and cache specifications."""
from dataclasses import dataclass

import torch

KV_DTYPES = {
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "e4m3_float8": torch.float8_e4m3fn,
}


@dataclass(frozen=True)
class MLAModelSpec:
    num_hidden_layers: int = 27
    num_attention_heads: int = 16
    kv_lora_rank: int = 512
    qk_nope_head_dim: int = 128
    qk_rope_head_dim: int = 64
    v_head_dim: int = 128

    @property
    def latent_width(self) -> int:
        """Compressed c_kv plus the decoupled rope key, cached per token."""
        return self.kv_lora_rank + self.qk_rope_head_dim


@dataclass
class PagedKVConfig:
    page_size: int = 16
    num_pages: int = 2048
    num_spill_pages: int = 1024
    kv_dtype: str = "e4m3_float8"

    def __post_init__(self):
        if self.kv_dtype not in KV_DTYPES:
            raise ValueError(f"unknown kv_dtype {self.kv_dtype}")
