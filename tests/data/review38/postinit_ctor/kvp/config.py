import dataclasses
from dataclasses import dataclass
from typing import Optional

import torch


@dataclass
class KVConfig:
    num_layers: int
    num_kv_heads: int
    head_dim: int
    kv_dtype: torch.dtype = torch.bfloat16
    host_dtype: Optional[torch.dtype] = None

    def __post_init__(self):
        if self.host_dtype is None:
            self.host_dtype = self.kv_dtype
