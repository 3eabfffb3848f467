"""Block geometry of the KV cache, in blocks of ``block_tokens`` tokens."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Optional

import torch

_TORCH_DTYPES = {"bfloat16": torch.bfloat16, "float16": torch.float16}


@dataclass(kw_only=True)
class BlockGeometry:
    num_blocks: int
    block_tokens: int = 32
    kv_heads: int
    k_dim: int
    v_dim: Optional[int] = None
    dtype: torch.dtype = torch.bfloat16

    @cached_property
    def value_dim(self) -> int:
        """Models with ``v_head_dim != head_dim`` store narrower values."""
        return self.v_dim or self.k_dim

    @cached_property
    def k_shape(self) -> tuple[int, int, int, int]:
        return (self.num_blocks, self.block_tokens, self.kv_heads, self.k_dim)

    @cached_property
    def v_shape(self) -> tuple[int, int, int, int]:
        return (self.num_blocks, self.block_tokens, self.kv_heads, self.value_dim)


def geometry_for(card: Any, tp_size: int, **overrides: Any) -> BlockGeometry:
    """Derive the per-rank geometry from a model card; overrides win."""
    kv_heads = getattr(card, "num_key_value_heads", card.num_attention_heads)
    fields = dict(
        block_tokens=getattr(card, "kv_block_tokens", 32),
        kv_heads=kv_heads // tp_size,
        k_dim=getattr(card, "head_dim", card.hidden_size // card.num_attention_heads),
        v_dim=getattr(card, "v_head_dim", None),
        dtype=_TORCH_DTYPES[getattr(card, "torch_dtype", "bfloat16")],
    )
    fields.update(overrides)
    return BlockGeometry(**fields)


def attention_layer_ids(card: Any) -> list[int]:
    """Layers that own a KV cache (the model interleaves KV-free MLP-only blocks)."""
    skip = set(getattr(card, "kv_free_layers", ()))
    return [i for i in range(card.num_hidden_layers) if i not in skip]
