import torch

from trtkv.config import KvCacheConfig
from trtkv.kv_cache_manager import KVCacheManager


class HostKVCache:
    def __init__(self, primary: KVCacheManager, kv_cache_config: KvCacheConfig):
        self.tokens_per_block = primary.tokens_per_block
        self.num_blocks = kv_cache_config.host_cache_tokens // self.tokens_per_block
        self.pool = torch.empty(
            (primary.num_layers, self.num_blocks, 2, self.tokens_per_block,
             primary.num_kv_heads * primary.head_size),
            dtype=primary.dtype,
            pin_memory=True,
        )

    def offload(self, primary: KVCacheManager, src: int, dst: int):
        self.pool[:, dst].copy_(primary.pool[:, src].flatten(3), non_blocking=True)
