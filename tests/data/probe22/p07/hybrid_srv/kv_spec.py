from dataclasses import dataclass
from typing import List

import torch


@dataclass(frozen=True)
class KVSpec:
    attn_layer_ids: List[int]
    mamba_layer_ids: List[int]
    num_kv_heads: int
    head_dim: int
    block_size: int
    dtype: torch.dtype
    d_inner: int
    d_conv: int
    d_state: int

    @property
    def num_attn_layers(self) -> int:
        return len(self.attn_layer_ids)

    @property
    def page_bytes(self) -> int:
        """Bytes of K (or V) for one block of one attention layer."""
        elem = torch.empty((), dtype=self.dtype, device="meta").element_size()
        return self.block_size * self.num_kv_heads * self.head_dim * elem

    @classmethod
    def from_model_config(cls, cfg, block_size: int, kv_dtype: str = "auto") -> "KVSpec":
        attn = [i for i in range(cfg.num_hidden_layers)
                if i % cfg.attn_layer_period == cfg.attn_layer_offset]
        mamba = [i for i in range(cfg.num_hidden_layers) if i not in attn]
        dtype = getattr(torch, cfg.torch_dtype if kv_dtype == "auto" else kv_dtype)
        return cls(attn_layer_ids=attn, mamba_layer_ids=mamba,
                   num_kv_heads=cfg.num_key_value_heads,
                   head_dim=cfg.hidden_size // cfg.num_attention_heads,
                   block_size=block_size, dtype=dtype,
                   d_inner=cfg.mamba_expand * cfg.hidden_size,
                   d_conv=cfg.mamba_d_conv, d_state=cfg.mamba_d_state)
