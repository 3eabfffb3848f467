from dataclasses import dataclass, field

import torch

from .dtypes import CacheDType, cache_dtype_from_env


@dataclass
class ModelSpec:
    num_layers: int = 12
    num_kv_heads: int = 8
    head_size: int = 128
    dtype: torch.dtype = torch.bfloat16


@dataclass
class CacheSpec:
    block_size: int = 16
    num_gpu_blocks: int = 1024
    num_cpu_blocks: int = 512
    cache_dtype: CacheDType = field(default_factory=cache_dtype_from_env)
