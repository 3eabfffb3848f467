"""Token-indexed K/V store on the accelerator (one tensor per layer)."""
import torch


class TokenKVStore:
    def __init__(self, size: int, num_layers: int, kv_heads: int, head_dim: int,
                 dtype: torch.dtype, device="cuda"):
        self.size = size
        self.dtype = dtype
        self.num_layers = num_layers
        # +1: slot 0 absorbs writes from padded tokens
        shape = (size + 1, kv_heads, head_dim)
        self.k_cache = [torch.empty(shape, dtype=dtype, device=device) for _ in range(num_layers)]
        self.v_cache = [torch.empty(shape, dtype=dtype, device=device) for _ in range(num_layers)]

    def set_kv(self, layer: int, loc: torch.Tensor, k: torch.Tensor, v: torch.Tensor):
        if k.dtype != self.dtype:
            k = k.to(self.dtype)
            v = v.to(self.dtype)
        self.k_cache[layer][loc] = k
        self.v_cache[layer][loc] = v
