"""Primary (device) paged KV pool with per-layer head counts."""
import enum
import math
from typing import List, Sequence, Union

import torch

from .mapping import Mapping


class CacheType(enum.IntEnum):
    SELF = 0
    CROSS = 1
    SELFKONLY = 2


class KVCacheManager:
    """Paged KV cache in device memory.

    Each layer has its own pool of shape
    ``[blocks_in_primary_pool, kv_factor, tokens_per_block, num_kv_heads_l, head_dim]``
    because variable-GQA models use a different number of KV heads per layer.
    """

    def __init__(
        self,
        num_layers: int,
        num_kv_heads: Union[int, Sequence[int]],
        head_dim: int,
        tokens_per_block: int,
        max_tokens: int,
        dtype: torch.dtype,
        mapping: Mapping,
        cache_type: CacheType = CacheType.SELF,
        device="cuda",
    ):
        self.num_layers = num_layers
        self.mapping = mapping
        self.head_dim = head_dim
        self.tokens_per_block = tokens_per_block
        self.max_tokens = max_tokens
        self.dtype = dtype
        self.cache_type = cache_type
        self.kv_factor = 1 if cache_type == CacheType.SELFKONLY else 2
        self.device = torch.device(device)

        if isinstance(num_kv_heads, int):
            num_kv_heads = [num_kv_heads] * num_layers
        assert len(num_kv_heads) == num_layers
        self.total_num_kv_heads_per_layer: List[int] = list(num_kv_heads)
        self.num_kv_heads_per_layer: List[int] = [
            mapping.local_kv_heads(h) for h in self.total_num_kv_heads_per_layer
        ]

        self.blocks_in_primary_pool = math.ceil(max_tokens / tokens_per_block)
        self.kv_cache_pool_per_layer: List[torch.Tensor] = []
        for layer_idx in range(num_layers):
            shape = (
                self.blocks_in_primary_pool,
                self.kv_factor,
                tokens_per_block,
                self.num_kv_heads_per_layer[layer_idx],
                head_dim,
            )
            self.kv_cache_pool_per_layer.append(torch.empty(shape, dtype=dtype, device=self.device))

    def get_buffers(self, layer_idx: int) -> torch.Tensor:
        return self.kv_cache_pool_per_layer[layer_idx]

    def get_cache_bytes_per_token(self) -> int:
        elem = torch.empty((), dtype=self.dtype).element_size()
        return sum(self.kv_factor * h * self.head_dim * elem for h in self.num_kv_heads_per_layer)
