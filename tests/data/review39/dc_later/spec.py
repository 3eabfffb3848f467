from dataclasses import dataclass, field
from typing import ClassVar

import torch

HEAD_DIM = 64


@dataclass
class KVSpec:
    head_num: int
    head_dim: int = HEAD_DIM  # the module's 64: the class constant below is not bound yet
    dtype: torch.dtype = field(default=torch.bfloat16, kw_only=True)
    HEAD_DIM: ClassVar[int] = 128
