from typing import List

import torch

from trtllm_py.llm_args import DataType, binding_to_torch_dtype


class CacheType:
    SELF = 0
    CROSS = 1


class KVCacheManager:
    kv_factor = 2

    def __init__(self, *, num_layers: int, num_kv_heads: int, head_dim: int,
                 tokens_per_block: int, max_tokens: int, dtype: DataType,
                 layer_ids: List[int], device="cuda"):
        self.num_local_layers = num_layers
        self.layer_offsets = {lid: i for i, lid in enumerate(layer_ids)}
        self.num_kv_heads = num_kv_heads
        self.head_dim = head_dim
        self.tokens_per_block = tokens_per_block
        self.dtype = dtype
        self.torch_dtype = binding_to_torch_dtype(dtype)
        self.blocks_in_primary_pool = max_tokens // tokens_per_block
        self.max_tokens = self.blocks_in_primary_pool * tokens_per_block
        self.primary_pool = torch.empty(
            (self.blocks_in_primary_pool, num_layers, self.kv_factor, self.block_numel),
            dtype=self.torch_dtype, device=device)

    @property
    def block_numel(self) -> int:
        return self.tokens_per_block * self.num_kv_heads * self.head_dim

    @staticmethod
    def get_cache_size_per_token(num_kv_heads: int, head_dim: int, dtype: DataType) -> int:
        elem = binding_to_torch_dtype(dtype).itemsize
        return KVCacheManager.kv_factor * num_kv_heads * head_dim * elem

    def get_buffers(self, layer_idx: int) -> torch.Tensor:
        i = self.layer_offsets[layer_idx]
        return self.primary_pool[:, i].view(
            self.blocks_in_primary_pool, self.kv_factor, self.tokens_per_block,
            self.num_kv_heads, self.head_dim)
