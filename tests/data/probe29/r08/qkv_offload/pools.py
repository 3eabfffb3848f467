"""Device KV pools. `select_pool_cls` picks the implementation for a cache dtype."""
import torch


class DenseKVPool:
    def __init__(self, max_tokens, num_layers, kv_heads, head_dim, dtype, device="cuda"):
        self.max_tokens = max_tokens
        self.num_layers = num_layers
        self.kv_heads = kv_heads
        self.head_dim = head_dim
        self.dtype = dtype
        shape = (max_tokens, kv_heads, head_dim)
        self.k_buffer = [torch.empty(shape, dtype=dtype, device=device) for _ in range(num_layers)]
        self.v_buffer = [torch.empty(shape, dtype=dtype, device=device) for _ in range(num_layers)]


class Int8KVPool:
    """int8 K/V with one fp16 scale per token per head."""

    scale_dtype = torch.float16

    def __init__(self, max_tokens, num_layers, kv_heads, head_dim, dtype=torch.int8, device="cuda"):
        self.max_tokens = max_tokens
        self.num_layers = num_layers
        self.kv_heads = kv_heads
        self.head_dim = head_dim
        self.dtype = dtype
        shape = (max_tokens, kv_heads, head_dim)
        self.k_buffer = [torch.empty(shape, dtype=dtype, device=device) for _ in range(num_layers)]
        self.v_buffer = [torch.empty(shape, dtype=dtype, device=device) for _ in range(num_layers)]
        self.k_scale = [torch.ones((max_tokens, kv_heads), dtype=self.scale_dtype, device=device)
                        for _ in range(num_layers)]
        self.v_scale = [torch.ones((max_tokens, kv_heads), dtype=self.scale_dtype, device=device)
                        for _ in range(num_layers)]

    def dequant_k(self, layer, loc):
        return self.k_buffer[layer][loc].to(torch.float16) * self.k_scale[layer][loc, :, None]

    def dequant_v(self, layer, loc):
        return self.v_buffer[layer][loc].to(torch.float16) * self.v_scale[layer][loc, :, None]


def select_pool_cls(cache_dtype):
    if cache_dtype == "int8":
        return Int8KVPool
    return DenseKVPool
