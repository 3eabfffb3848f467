"""GPU pool of Mamba-2 recurrent state, one slot per running request."""
from __future__ import annotations

import torch


class MambaStatePool:
    """Conv window and SSM state per request slot for each Mamba-2 layer.

    Sharding follows the mixer: ``in_proj`` splits the intermediate channels and
    the SSM heads across ranks; the B/C group projections are split as well when
    ``n_groups`` divides evenly, and replicated on every rank otherwise.
    """

    def __init__(self, capacity: int, depth: int, intermediate: int, n_groups: int,
                 d_state: int, n_heads: int, head_dim: int, d_conv: int, tp_size: int,
                 conv_dtype: torch.dtype, device: str = "cuda") -> None:
        self.capacity = capacity
        self.depth = depth
        self.tp_size = tp_size
        self.local_groups = n_groups // tp_size if n_groups % tp_size == 0 else n_groups
        self.conv_dim = intermediate // tp_size + 2 * self.local_groups * d_state
        self.d_conv = d_conv
        self.local_heads = n_heads // tp_size
        self.head_dim = head_dim
        self.d_state = d_state
        self.conv_state = [torch.zeros(self.conv_shape(), dtype=conv_dtype, device=device)
                           for _ in range(depth)]
        self.ssm_state = [torch.zeros(self.ssm_shape(), dtype=torch.float32, device=device)
                          for _ in range(depth)]

    def conv_shape(self) -> torch.Size:
        return torch.Size((self.capacity, self.conv_dim, self.d_conv - 1))

    def ssm_shape(self) -> torch.Size:
        return torch.Size((self.capacity, self.local_heads, self.head_dim, self.d_state))
