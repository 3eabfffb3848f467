import torch

from hfkv.config import ModelArgs
from hfkv.kv_cache import StaticKVCache


class OffloadedKVCache:
    def __init__(self, args: ModelArgs, device_cache: StaticKVCache, host_tokens: int):
        head_dim = args.hidden_size // args.num_attention_heads
        self.key_cache = []
        self.value_cache = []
        for _ in range(args.num_hidden_layers):
            shape = (host_tokens, args.num_key_value_heads, head_dim)
            self.key_cache.append(torch.zeros(shape, dtype=device_cache.dtype, pin_memory=True))
            self.value_cache.append(torch.zeros(shape, dtype=device_cache.dtype, pin_memory=True))
