from dataclasses import dataclass
from typing import Dict, Tuple

import torch

from .config import STR_DTYPE_TO_TORCH_DTYPE, EngineConfig


@dataclass(frozen=True)
class AttentionSpec:
    block_size: int
    num_kv_heads: int
    head_size: int
    dtype: torch.dtype

    @property
    def page_size_bytes(self) -> int:
        return 2 * self.block_size * self.num_kv_heads * self.head_size * self.dtype.itemsize

    def kv_cache_shape(self, num_blocks: int) -> Tuple[int, ...]:
        return (2, num_blocks, self.block_size, self.num_kv_heads, self.head_size)


@dataclass(frozen=True)
class FullAttentionSpec(AttentionSpec):
    pass


@dataclass(frozen=True)
class SlidingWindowSpec(AttentionSpec):
    sliding_window: int = 0


def resolve_cache_dtype(cache_dtype: str, model_dtype: torch.dtype) -> torch.dtype:
    if cache_dtype == "auto":
        return model_dtype
    return STR_DTYPE_TO_TORCH_DTYPE[cache_dtype]


def get_kv_cache_specs(config: EngineConfig) -> Dict[str, AttentionSpec]:
    model = config.model
    common = dict(
        block_size=config.cache.block_size,
        num_kv_heads=model.get_num_kv_heads(config.parallel.tensor_parallel_size),
        head_size=model.get_head_size(),
        dtype=resolve_cache_dtype(config.cache.cache_dtype, model.dtype),
    )
    specs: Dict[str, AttentionSpec] = {}
    for i, kind in enumerate(model.layer_types):
        name = f"model.layers.{i}.self_attn.attn"
        if kind == "sliding_attention":
            specs[name] = SlidingWindowSpec(sliding_window=model.sliding_window, **common)
        else:
            specs[name] = FullAttentionSpec(**common)
    return specs
