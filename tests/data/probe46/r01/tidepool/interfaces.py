"""Structural interface shared by every tier of the KV hierarchy."""
from __future__ import annotations

from typing import Mapping, Protocol, runtime_checkable

import torch


@runtime_checkable
class KVTier(Protocol):
    """Anything that can hand out per-layer K/V views indexed by layer id."""

    dtype: torch.dtype
    capacity: int

    @property
    def k_cache(self) -> Mapping[int, torch.Tensor]: ...

    @property
    def v_cache(self) -> Mapping[int, torch.Tensor]: ...

    def token_bytes(self) -> int:
        """Bytes occupied by one token across all layers on this tier."""
        ...
