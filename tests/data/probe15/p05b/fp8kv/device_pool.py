import torch

from fp8kv.dtypes import KV_DTYPES


class PagedKVPool:
    def __init__(self, num_pages: int, page_size: int, num_hidden_layers: int,
                 num_kv_heads: int, head_dim: int, kv_dtype: str = "bf16"):
        self.page_size = page_size
        self.num_hidden_layers = num_hidden_layers
        self.kv_dtype = kv_dtype
        self.dtype = KV_DTYPES[kv_dtype]
        self.kv_data = torch.empty(
            (num_hidden_layers, 2, num_pages, page_size, num_kv_heads, head_dim),
            dtype=self.dtype, device="cuda")
        self.kv_scale = None
        if kv_dtype == "fp8":
            self.kv_scale = torch.ones(
                (num_hidden_layers, 2, num_pages, page_size, num_kv_heads),
                dtype=torch.float32, device="cuda")
