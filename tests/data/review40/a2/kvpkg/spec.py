from dataclasses import dataclass

import torch


@dataclass
class KVSpec:
    head_num: int
    head_dim: int
    layer_num: int
    dtype: torch.dtype = torch.bfloat16
