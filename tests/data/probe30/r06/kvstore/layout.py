"""Immutable description of the KV cache layout."""
import math
import os
from typing import NamedTuple, Tuple

import torch

_DTYPE_NAMES = {
    "bfloat16": torch.bfloat16,
    "float16": torch.float16,
    "float32": torch.float32,
}


def dtype_from_env(default: str = "bfloat16") -> torch.dtype:
    return _DTYPE_NAMES[os.environ.get("KVSTORE_DTYPE", default)]


class KVLayout(NamedTuple):
    num_layers: int
    num_blocks: int
    block_size: int
    num_kv_heads: int
    head_dim: int
    dtype: torch.dtype

    @property
    def block_shape(self) -> Tuple[int, ...]:
        """K and V of one block of one layer: (2, block_size, heads, head_dim)."""
        return (2, self.block_size, self.num_kv_heads, self.head_dim)

    @property
    def full_shape(self) -> Tuple[int, ...]:
        return (self.num_layers, 2, self.num_blocks, self.block_size, self.num_kv_heads, self.head_dim)

    @property
    def element_bytes(self) -> int:
        return torch.finfo(self.dtype).bits // 8

    @property
    def block_bytes(self) -> int:
        return math.prod(self.block_shape) * self.element_bytes
