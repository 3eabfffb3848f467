"""Type aliases shared by the cache tiers."""
from __future__ import annotations

from typing import Union

import torch

DeviceLike = Union[str, torch.device]
LayerBuffers = list[torch.Tensor]
# Per-token shape of one K or V row: (kv_heads, head_dim).
TokenShape = tuple[int, int]
