"""Host mirror of the Mamba state pool for requests paused by the scheduler."""
from __future__ import annotations

import torch

from .protocols import StatePool


class HostStateMirror:
    """Pinned CPU slots holding conv/SSM state of paused requests."""

    def __init__(self, like: StatePool, capacity: int, intermediate: int, n_groups: int,
                 d_state: int, tp_size: int, device: str = "cpu") -> None:
        self.capacity = capacity
        self.depth = like.depth
        self._tp = tp_size
        self._intermediate = intermediate
        self._n_groups = n_groups
        self._d_state = d_state
        self._like = like
        conv_dtype = like.conv_state[0].dtype
        self.conv_state = [torch.empty(self.conv_shape(), dtype=conv_dtype, device=device)
                           for _ in range(self.depth)]
        self.ssm_state = [torch.empty(self.ssm_shape(), dtype=torch.float32, device=device)
                          for _ in range(self.depth)]

    def conv_shape(self) -> torch.Size:
        # x is sharded with in_proj; B and C are shared by all heads of a group.
        conv_dim = self._intermediate // self._tp + 2 * self._n_groups * self._d_state
        d_conv_minus_1 = self._like.conv_shape()[-1]
        return torch.Size((self.capacity, conv_dim, d_conv_minus_1))

    def ssm_shape(self) -> torch.Size:
        return torch.Size((self.capacity, *self._like.ssm_shape()[1:]))
