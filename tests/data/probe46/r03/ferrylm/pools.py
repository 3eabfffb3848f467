"""Token-indexed KV pools for the target and draft models."""
from __future__ import annotations

from dataclasses import dataclass, field

import torch


@dataclass(kw_only=True)
class PagedKV:
    """K/V storage for ``layers`` layers, one row per token slot."""

    layers: int
    heads: int
    head_dim: int
    slots: int
    dtype: torch.dtype
    device: str = "cuda"
    k_pool: list[torch.Tensor] = field(default_factory=list, init=False, repr=False)
    v_pool: list[torch.Tensor] = field(default_factory=list, init=False, repr=False)

    def __post_init__(self) -> None:
        shape = (self.slots + 1, self.heads, self.head_dim)
        for _ in range(self.layers):
            self.k_pool.append(torch.empty(shape, dtype=self.dtype, device=self.device))
            self.v_pool.append(torch.empty(shape, dtype=self.dtype, device=self.device))

    def bytes_per_token(self) -> int:
        return sum(t[0].numel() * t.element_size() for t in self.k_pool + self.v_pool)


@dataclass(kw_only=True)
class DraftPagedKV(PagedKV):
    """Draft-model pool; shares slot indices with the target allocator."""

    step_tokens: int = 1
    scratch: list[torch.Tensor] = field(default_factory=list, init=False, repr=False)


POOL_KINDS: dict[str, type[PagedKV]] = {
    "target": PagedKV,
    "eagle": DraftPagedKV,
    "eagle3": DraftPagedKV,
}


def make_pool(kind: str, base: dict, **overrides) -> PagedKV:
    """Instantiate a registered pool kind from ``base`` plus overrides."""
    cls = POOL_KINDS[kind]
    return cls(**{**base, **overrides})
