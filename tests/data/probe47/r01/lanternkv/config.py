"""Model and runtime configuration objects used to size the KV cache."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping


@dataclass
class ModelArch:
    """Subset of a HuggingFace config that matters for KV cache layout."""

    hidden_size: int
    num_attention_heads: int
    num_hidden_layers: int
    num_key_value_heads: int | None = None
    head_dim: int | None = None
    torch_dtype: str = "bfloat16"
    extra: dict = field(default_factory=dict)

    @classmethod
    def from_hf(cls, hf: Mapping[str, Any]) -> "ModelArch":
        known = {f for f in cls.__dataclass_fields__ if f != "extra"}
        kwargs = {k: v for k, v in hf.items() if k in known}
        rest = {k: v for k, v in hf.items() if k not in known}
        return cls(**kwargs, extra=rest)

    @property
    def head_size(self) -> int:
        if self.head_dim:
            return self.head_dim
        return self.hidden_size // self.num_attention_heads

    @property
    def total_kv_heads(self) -> int:
        return self.num_key_value_heads or self.num_attention_heads

    def kv_heads_per_rank(self, tp_size: int) -> int:
        # KV heads are replicated when there are fewer of them than ranks.
        return max(1, self.total_kv_heads // tp_size)

    @property
    def depth(self) -> int:
        return self.num_hidden_layers


@dataclass
class RuntimeConfig:
    """Server-side knobs for the cache."""

    tp_size: int = 1
    max_total_tokens: int = 200_000
    page_size: int = 1
    kv_cache_dtype: str = "auto"
    hicache_ratio: float = 2.0
    device: str = "cuda"
    host_device: str = "cpu"

    @property
    def host_pinned(self) -> bool:
        return self.host_device == "cpu"
