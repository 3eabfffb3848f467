"""Per-layer paged K/V cache on the accelerator."""
from typing import List, Tuple

import torch

from .config import CacheSpec, ModelSpec
from .dtypes import get_kv_cache_torch_dtype


class GPUKVCache:
    def __init__(
        self,
        num_layers: int,
        num_blocks: int,
        block_size: int,
        num_kv_heads: int,
        head_size: int,
        dtype: torch.dtype,
        device="cuda",
    ):
        self.num_layers = num_layers
        self.num_blocks = num_blocks
        self.block_size = block_size
        self.num_kv_heads = num_kv_heads
        self.head_size = head_size
        self.dtype = dtype
        self.device = torch.device(device)

        shapes: List[Tuple[int, ...]] = []
        for _ in range(num_layers):
            shapes.append((num_blocks, block_size, num_kv_heads, head_size))
        self.key_cache = [torch.empty(s, dtype=dtype, device=self.device) for s in shapes]
        self.value_cache = [torch.empty(s, dtype=dtype, device=self.device) for s in shapes]

    @classmethod
    def from_config(cls, model: ModelSpec, cache: CacheSpec, device="cuda") -> "GPUKVCache":
        return cls(
            num_layers=model.num_layers,
            num_blocks=cache.num_gpu_blocks,
            block_size=cache.block_size,
            num_kv_heads=model.num_kv_heads,
            head_size=model.head_size,
            dtype=get_kv_cache_torch_dtype(cache.cache_dtype, model.dtype),
            device=device,
        )

    @property
    def num_slots(self) -> int:
        return self.num_blocks * self.block_size
