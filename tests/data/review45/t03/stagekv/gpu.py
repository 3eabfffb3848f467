"""Device K/V pages."""
import torch


class PagedKV:
    def __init__(self, size: int, layer_num: int, kv_heads: int = 8, head_dim: int = 128,
                 dtype=torch.bfloat16, device="cuda"):
        self.kv_heads, self.head_dim, self.dtype = kv_heads, head_dim, dtype
        self.layer_num = layer_num
        self.k_cache = [
            torch.zeros((size, kv_heads, head_dim), dtype=dtype, device=device)
            for _ in range(layer_num)
        ]
        self.v_cache = [
            torch.zeros((size, kv_heads, head_dim), dtype=dtype, device=device)
            for _ in range(layer_num)
        ]
