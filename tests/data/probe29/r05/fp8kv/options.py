"""Engine options relevant to KV storage."""
from dataclasses import dataclass

import torch


@dataclass
class EngineOptions:
    num_slots: int = 64
    n_layers: int = 3
    kv_heads_total: int = 8
    head_dim: int = 128
    tp_size: int = 4
    act_dtype: torch.dtype = torch.bfloat16
    fp8_kv: bool = True
    host_ratio: float = 4.0
