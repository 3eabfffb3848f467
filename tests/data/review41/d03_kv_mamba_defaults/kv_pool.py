import torch
from base import StatePoolBase


class PagedKVPool(StatePoolBase):
    def __init__(self, size: int, num_layers: int, dtype: torch.dtype,
                 num_kv_heads: int = 8, head_dim: int = 128, device: str = "cuda"):
        self.size = size
        plan = {"k_cache": (num_kv_heads, head_dim), "v_cache": (num_kv_heads, head_dim)}
        self._allocate(plan, size, num_layers, dtype, device)
