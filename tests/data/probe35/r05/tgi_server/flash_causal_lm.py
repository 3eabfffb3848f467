from typing import List

import torch

from tgi_server.kv_cache import BLOCK_SIZE, KVCache
from tgi_server.utils import resolve_dtype


class FlashKVCachePool:
    def __init__(self, num_layers: int, num_blocks: int, num_heads: int, head_size: int,
                 dtype: torch.dtype, device):
        self.num_layers = num_layers
        self.num_blocks = num_blocks
        self.block_size = BLOCK_SIZE
        self.dtype = dtype
        self.layers: List[KVCache] = [
            KVCache(num_blocks=num_blocks, num_heads=num_heads, head_size=head_size,
                    dtype=dtype, device=device)
            for _ in range(num_layers)
        ]

    @property
    def num_slots(self) -> int:
        return self.num_blocks * self.block_size

    @classmethod
    def for_model(cls, config: dict, num_blocks: int, dtype: str, world_size: int, device):
        num_heads = config["num_key_value_heads"] // world_size
        head_size = config["hidden_size"] // config["num_attention_heads"]
        return cls(config["num_hidden_layers"], num_blocks, num_heads, head_size,
                   resolve_dtype(dtype), device)
