import torch

from trtkv.config import KvCacheConfig, ModelSpec


class KVCacheManager:
    def __init__(self, kv_cache_config: KvCacheConfig, model: ModelSpec):
        self.tokens_per_block = kv_cache_config.tokens_per_block
        self.num_blocks = kv_cache_config.max_tokens // self.tokens_per_block
        self.num_layers = model.num_layers
        self.num_kv_heads = model.num_kv_heads
        self.head_size = model.head_size
        self.dtype = model.kv_dtype
        # [layers, blocks, K/V, tokens_per_block, heads, head_size]
        self.pool = torch.empty(
            (self.num_layers, self.num_blocks, 2, self.tokens_per_block, self.num_kv_heads, self.head_size),
            dtype=self.dtype,
            device="cuda",
        )

    def get_block(self, layer: int, block_id: int):
        return self.pool[layer, block_id]
