"""Per-layer KV cache specifications."""
import math
from dataclasses import dataclass
from typing import Callable, Dict, Type

import torch

SPEC_REGISTRY: Dict[str, Type["AttentionSpec"]] = {}


def register_spec(kind: str) -> Callable[[Type["AttentionSpec"]], Type["AttentionSpec"]]:
    def deco(cls):
        SPEC_REGISTRY[kind] = cls
        cls.kind = kind
        return cls

    return deco


@dataclass(frozen=True)
class AttentionSpec:
    block_size: int
    num_kv_heads: int
    head_size: int
    dtype: torch.dtype

    @property
    def page_size_bytes(self) -> int:
        # K and V for one block
        return 2 * self.block_size * self.num_kv_heads * self.head_size * self.dtype.itemsize

    def max_memory_usage_bytes(self, max_model_len: int) -> int:
        return math.ceil(max_model_len / self.block_size) * self.page_size_bytes


@register_spec("full_attention")
@dataclass(frozen=True)
class FullAttentionSpec(AttentionSpec):
    pass


@register_spec("sliding_window")
@dataclass(frozen=True)
class SlidingWindowSpec(AttentionSpec):
    sliding_window: int = 1024

    def max_memory_usage_bytes(self, max_model_len: int) -> int:
        n = min(self.sliding_window - 1 + self.block_size, max_model_len)
        return math.ceil(n / self.block_size) * self.page_size_bytes


@dataclass
class HFTextConfig:
    num_hidden_layers: int = 6
    num_key_value_heads: int = 8
    head_dim: int = 128
    torch_dtype: torch.dtype = torch.float16
    sliding_window: int = 1024
    # 'sliding_window' or 'full_attention' for each layer
    layer_types: tuple = (
        "sliding_window",
        "full_attention",
        "sliding_window",
        "full_attention",
        "sliding_window",
        "full_attention",
    )


def get_kv_cache_spec(cfg: HFTextConfig, block_size: int, tp_size: int) -> Dict[str, AttentionSpec]:
    heads = max(1, cfg.num_key_value_heads // tp_size)
    specs: Dict[str, AttentionSpec] = {}
    for i, kind in enumerate(cfg.layer_types):
        cls = SPEC_REGISTRY[kind]
        kwargs = dict(block_size=block_size, num_kv_heads=heads, head_size=cfg.head_dim, dtype=cfg.torch_dtype)
        if kind == "sliding_window":
            kwargs["sliding_window"] = cfg.sliding_window
        specs[f"model.layers.{i}.self_attn.attn"] = cls(**kwargs)
    return specs
