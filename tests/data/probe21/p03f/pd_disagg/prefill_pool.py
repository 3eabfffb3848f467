import torch

from .config import latent_dim
from .registry import register_pool


def index_k_bytes(dim: int, block: int) -> int:
    # fp8 values followed by one fp32 scale per quant block
    return dim + dim // block * 4


@register_pool("prefill")
class PrefillMLAPool:
    def __init__(self, cfg: dict, device="cuda"):
        self.num_layers = cfg["num_hidden_layers"]
        self.page_size = cfg["page_size"]
        self.num_pages = cfg["prefill_pages"]
        self.dtype = getattr(torch, cfg["kv_dtype"])
        self.kv_dim = latent_dim(cfg)
        self.index_row = index_k_bytes(cfg["index_head_dim"], cfg["index_block_size"])
        self.kv_latent = [torch.empty(self.num_pages, self.page_size, self.kv_dim,
                                      dtype=self.dtype, device=device) for _ in range(self.num_layers)]
        self.index_k = [torch.empty(self.num_pages, self.page_size, self.index_row,
                                    dtype=torch.uint8, device=device) for _ in range(self.num_layers)]

    def page_view(self, layer, page):
        return self.kv_latent[layer][page], self.index_k[layer][page]

    def transfer_descriptors(self, pages):
        out = []
        for layer in range(self.num_layers):
            for p in pages:
                lat, idx = self.page_view(layer, p)
                out.append((layer, p, lat.nbytes, idx.nbytes))
        return out
