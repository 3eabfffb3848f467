"""Static description of the KV cache for one worker."""
from dataclasses import dataclass

import torch

from .cache_dtype import CacheDType


@dataclass(frozen=True)
class CacheSpec:
    num_layers: int = 48
    total_num_kv_heads: int = 8
    head_size: int = 128
    block_size: int = 16
    tensor_parallel_size: int = 2
    model_dtype: torch.dtype = torch.float16
    cache_dtype: str = "fp8_e4m3"

    @property
    def kind(self):
        return CacheDType(self.cache_dtype)

    @property
    def num_kv_heads(self):
        return max(1, self.total_num_kv_heads // self.tensor_parallel_size)

    @property
    def kv_dtype(self):
        return self.kind.storage_dtype(self.model_dtype)


def kv_block_shape(spec, num_blocks):
    return (num_blocks, spec.block_size, spec.num_kv_heads, spec.head_size)


def scale_block_shape(spec, num_blocks):
    return (num_blocks, spec.block_size, spec.num_kv_heads)
