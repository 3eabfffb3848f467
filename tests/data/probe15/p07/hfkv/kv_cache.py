import torch

from hfkv.config import ModelArgs


class StaticKVCache:
    def __init__(self, args: ModelArgs, max_batch_tokens: int, dtype: torch.dtype = torch.bfloat16):
        self.dtype = dtype
        self.key_cache = []
        self.value_cache = []
        for _ in range(args.num_hidden_layers):
            shape = (max_batch_tokens, args.num_key_value_heads, args.head_dim)
            self.key_cache.append(torch.zeros(shape, dtype=dtype, device="cuda"))
            self.value_cache.append(torch.zeros(shape, dtype=dtype, device="cuda"))
