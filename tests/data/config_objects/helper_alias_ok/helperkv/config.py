from dataclasses import dataclass
import torch

@dataclass
class KVCacheSpec:
    num_layers: int
    num_kv_heads: int
    head_dim: int
    cache_dtype: torch.dtype = torch.bfloat16
    use_fp8_scales: bool = False
