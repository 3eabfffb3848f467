from typing import List, Optional

import torch

from ..layers.kv_cache import KVCache
from ..utils.host_cache import HostKVCache, build_host_tier
from ..utils.import_utils import BLOCK_SIZE, KV_CACHE_DTYPES


class FlashCausalLM:

    def __init__(self, config: dict, dtype: torch.dtype, kv_cache_dtype: Optional[str],
                 num_shard: int = 1, device: str = "cuda"):
        self.config = config
        self.dtype = dtype
        self.kv_cache_dtype = KV_CACHE_DTYPES[kv_cache_dtype] or dtype
        self.device = device
        self.num_layers = config["num_hidden_layers"]
        head_size = config.get("head_dim")
        self.head_size = head_size or config["hidden_size"] // config["num_attention_heads"]
        kv_heads = config.get("num_key_value_heads", config["num_attention_heads"])
        if kv_heads % num_shard != 0:
            raise ValueError("num_key_value_heads must be divisible by num_shard")
        self.num_kv_heads = kv_heads // num_shard
        self.kv_cache: List[KVCache] = []
        self.host_cache: List[HostKVCache] = []

    def init_kv_cache(self, num_blocks: int):
        self.kv_cache = [
            KVCache(num_blocks=num_blocks, num_heads=self.num_kv_heads,
                    head_size=self.head_size, dtype=self.kv_cache_dtype,
                    device=self.device)
            for _ in range(self.num_layers)
        ]

    def warmup(self, max_total_tokens: int, host_cache_ratio: float,
               host_device: str = "cpu"):
        num_blocks = max_total_tokens // BLOCK_SIZE
        self.init_kv_cache(num_blocks)
        if host_cache_ratio > 0:
            self.host_cache = build_host_tier(
                self.kv_cache, int(num_blocks * host_cache_ratio), device=host_device)
        return num_blocks * BLOCK_SIZE
