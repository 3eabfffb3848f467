from dataclasses import dataclass, field
from typing import ClassVar

import torch

# the head size every pool uses (module default)
HEAD_DIM = 64


@dataclass
class KVSpec:
    HEAD_DIM: ClassVar[int] = 128  # a class constant of the same name (not seen by a lambda)
    head_num: int
    head_dim: int = field(default_factory=lambda: HEAD_DIM)
    dtype: torch.dtype = field(default=torch.bfloat16, kw_only=True)
