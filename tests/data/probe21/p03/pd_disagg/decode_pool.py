import torch

from .config import latent_dim
from .registry import register_pool


@register_pool("decode")
class DecodeMLAPool:
    """Receives pages pushed by prefill workers; layout must match byte for byte."""

    def __init__(self, cfg: dict, device="cuda"):
        self.num_layers = cfg["num_hidden_layers"]
        self.page_size = cfg["page_size"]
        self.num_pages = cfg["decode_pages"]
        self.dtype = getattr(torch, cfg["kv_dtype"])
        dim = cfg["index_head_dim"]
        block = cfg.get("index_quant_block", 64)
        self.index_row = dim + (dim // block) * 4
        self.kv_latent = [torch.empty((self.num_pages, self.page_size, latent_dim(cfg)),
                                      dtype=self.dtype, device=device) for _ in range(self.num_layers)]
        self.index_k = [torch.empty((self.num_pages, self.page_size, self.index_row),
                                    dtype=torch.uint8, device=device) for _ in range(self.num_layers)]
        self.free_pages = list(range(self.num_pages))

    def alloc(self, n):
        pages, self.free_pages = self.free_pages[:n], self.free_pages[n:]
        return pages

    def receive(self, layer, page, latent_bytes, index_bytes):
        self.kv_latent[layer][page].view(torch.uint8).copy_(latent_bytes)
        self.index_k[layer][page].copy_(index_bytes)
