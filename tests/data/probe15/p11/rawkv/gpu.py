import torch


class KVCache:
    def __init__(self, max_tokens: int, layers: int, kv_heads: int, head_dim: int,
                 dtype: torch.dtype = torch.bfloat16):
        self.max_tokens = max_tokens
        self.layers = layers
        self.kv_heads = kv_heads
        self.head_dim = head_dim
        self.dtype = dtype
        self.kv_buffer = [
            torch.empty((max_tokens, 2, kv_heads, head_dim), dtype=dtype, device="cuda")
            for _ in range(layers)
        ]
