"""KV cache configuration."""
from dataclasses import dataclass

import torch


@dataclass
class KVCacheConfig:
    num_layers: int = 32
    num_kv_heads: int = 8
    head_dim: int = 128
    capacity: int = 4096
    host_capacity: int = 8192
    cache_dtype: torch.dtype = torch.float8_e4m3fn
    scale_dtype: torch.dtype = torch.float32
