import torch


class TokenKVPool:
    def __init__(self, capacity: int, num_layers: int, kv_heads: int, head_dim: int, dtype: torch.dtype):
        self.capacity = capacity
        self.num_layers = num_layers
        self.kv_heads = kv_heads
        self.head_dim = head_dim
        self.dtype = dtype
        self.buf = torch.empty((2, num_layers, capacity, kv_heads, head_dim), dtype=dtype, device="cuda")

    def bytes_per_token(self) -> int:
        return 2 * self.num_layers * self.kv_heads * self.head_dim * self.dtype.itemsize
