from dataclasses import dataclass

import torch


@dataclass
class KvCacheConfig:
    tokens_per_block: int = 64
    max_tokens: int = 16384
    host_cache_tokens: int = 65536


@dataclass
class ModelSpec:
    num_layers: int
    num_kv_heads: int
    head_size: int
    kv_dtype: torch.dtype = torch.float16
