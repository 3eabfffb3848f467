"""Structural types shared by the state pools."""
from __future__ import annotations

from typing import Protocol

import torch


class StatePool(Protocol):
    """Anything holding per-request conv and SSM state for every Mamba layer."""

    depth: int
    capacity: int
    conv_state: list[torch.Tensor]
    ssm_state: list[torch.Tensor]

    def conv_shape(self) -> torch.Size: ...

    def ssm_shape(self) -> torch.Size: ...
