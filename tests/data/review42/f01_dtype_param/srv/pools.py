import torch


class PagedKVCache:
    def __init__(self, num_pages: int, page_size: int, num_layers: int, kv_heads: int,
                 head_dim: int, dtype: torch.dtype, device="cuda"):
        self.page_size, self.num_layers = page_size, num_layers
        self.kv_heads, self.head_dim, self.dtype = kv_heads, head_dim, dtype
        self.kv = [torch.empty((num_pages, 2, page_size, kv_heads, head_dim), dtype=dtype,
                               device=device) for _ in range(num_layers)]


class PinnedSwapSpace:
    """Swap space kept as raw bytes: one row of bytes a token."""

    def __init__(self, gpu_cache: PagedKVCache, num_tokens: int, row_bytes: int,
                 device="cpu"):
        self.num_tokens = num_tokens
        self.kv = [torch.empty((num_tokens, row_bytes), dtype=torch.uint8, device=device)
                   for _ in range(gpu_cache.num_layers)]
