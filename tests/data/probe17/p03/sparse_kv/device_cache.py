import torch

from .layout import index_row_bytes, latent_width


class LatentCache:
    def __init__(self, n_layers, max_tokens, page_size=64, dtype=torch.bfloat16, device="cuda"):
        self.n_layers = n_layers
        self.max_tokens = max_tokens
        self.page_size = page_size
        self.dtype = dtype
        self.latent = [
            torch.zeros((max_tokens + page_size, 1, latent_width()), dtype=dtype, device=device)
            for _ in range(n_layers)
        ]
        self.index_k = [
            torch.zeros((max_tokens + page_size, index_row_bytes()), dtype=torch.uint8, device=device)
            for _ in range(n_layers)
        ]
