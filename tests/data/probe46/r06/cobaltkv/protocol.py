"""Interface every KV store implements."""
from __future__ import annotations

from typing import Protocol, Sequence

import torch


class KVCacheLike(Protocol):
    """Minimal surface used by the swap manager."""

    keys: Sequence[torch.Tensor]
    values: Sequence[torch.Tensor]

    @property
    def layer_count(self) -> int: ...

    def get_kv(self, layer: int) -> tuple[torch.Tensor, torch.Tensor]: ...
