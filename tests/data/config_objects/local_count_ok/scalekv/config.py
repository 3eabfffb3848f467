from dataclasses import dataclass
import torch

@dataclass
class KVConfig:
    num_layers: int
    num_kv_heads: int
    head_dim: int
    kv_dtype: torch.dtype
    use_fp8_scales: bool = False
