"""KV cache configuration (per tensor-parallel rank)."""

from dataclasses import dataclass

import torch


@dataclass
class KVCacheConfig:
    num_layers: int = 40
    num_kv_heads: int = 8
    head_size: int = 128
    block_size: int = 64
    num_blocks: int = 1024
    num_host_blocks: int = 4096
    cache_dtype: torch.dtype = torch.float16
