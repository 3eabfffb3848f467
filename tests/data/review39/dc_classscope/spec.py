from dataclasses import dataclass, field
from typing import ClassVar

import torch

# the draft model's head size (module default)
HEAD_DIM = 64


@dataclass
class KVSpec:
    HEAD_DIM: ClassVar[int] = 128  # the target model's
    head_num: int
    head_dim: int = field(default=HEAD_DIM)
    dtype: torch.dtype = field(default=torch.bfloat16, kw_only=True)
