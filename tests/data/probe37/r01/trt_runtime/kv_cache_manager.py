"""Primary (device) KV cache pool, block granular, shared by all requests of a session."""
from typing import Dict, List

import torch

from .config import KvCacheConfig, Mapping, ModelConfig, str_dtype_to_torch


class KVCacheManager:
    """Owns the primary pool.

    Layout: [max_blocks, num_local_layers, 2 (K/V), kv_heads_per_rank, tokens_per_block, head_size],
    which is what the attention plugin expects (one block pointer per layer).
    """

    def __init__(self, model_config: ModelConfig, mapping: Mapping, kv_config: KvCacheConfig,
                 device: str = "cuda"):
        mapping.check_kv_heads(model_config.num_kv_heads)
        self.local_layers = mapping.pp_layers(model_config.num_layers)
        self.num_local_layers = len(self.local_layers)
        self.tokens_per_block = kv_config.tokens_per_block
        self.max_blocks = kv_config.max_primary_blocks
        self.kv_heads_per_rank = max(1, model_config.num_kv_heads // mapping.tp_size)
        self.head_size = model_config.head_size
        self.dtype = str_dtype_to_torch(kv_config.kv_cache_dtype or model_config.dtype)
        self.primary_pool = torch.empty(
            (self.max_blocks, self.num_local_layers, 2, self.kv_heads_per_rank,
             self.tokens_per_block, self.head_size),
            dtype=self.dtype, device=device)
        self._free_blocks: List[int] = list(range(self.max_blocks - 1, -1, -1))
        self._seq_blocks: Dict[int, List[int]] = {}

    @property
    def max_num_tokens(self) -> int:
        return self.max_blocks * self.tokens_per_block

    def get_num_free_blocks(self) -> int:
        return len(self._free_blocks)

    def add_sequence(self, seq_id: int, num_tokens: int) -> List[int]:
        needed = -(-num_tokens // self.tokens_per_block)
        if needed > len(self._free_blocks):
            raise RuntimeError("primary pool exhausted")
        self._seq_blocks[seq_id] = [self._free_blocks.pop() for _ in range(needed)]
        return self._seq_blocks[seq_id]

    def remove_sequence(self, seq_id: int) -> None:
        self._free_blocks.extend(reversed(self._seq_blocks.pop(seq_id, [])))

    def block_view(self, block_id: int) -> torch.Tensor:
        return self.primary_pool[block_id]
