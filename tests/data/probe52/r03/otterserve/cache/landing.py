"""Receive-side pool on decode workers; prefill pages land here over RDMA."""
import torch

from .kvformat import KVFormat


class DecodeLandingPool:
    def __init__(self, layers, heads, head_dim, tokens, fmt: KVFormat, page=16, device="cuda"):
        self.fmt, self.page = fmt, page
        self.heads, self.head_dim = heads, head_dim
        self.num_pages = tokens // page + 1
        shape = (self.num_pages * page, heads, head_dim)
        self.recv_k = [torch.empty(shape, dtype=fmt.storage, device=device) for _ in range(layers)]
        self.recv_v = [torch.empty(shape, dtype=fmt.storage, device=device) for _ in range(layers)]

    @classmethod
    def from_model_config(cls, cfg, tokens, fmt, page=16, tp_size=1, device="cuda"):
        heads = max(1, cfg.num_key_value_heads // tp_size)
        head_dim = getattr(cfg, "head_dim", None) or cfg.hidden_size // cfg.num_attention_heads
        return cls(cfg.num_hidden_layers, heads, head_dim, tokens, fmt, page, device)

    def page_nbytes(self) -> int:
        return 2 * self.page * self.heads * self.head_dim * self.fmt.storage.itemsize

    def register_regions(self):
        return [(t.data_ptr(), t.nbytes) for t in self.recv_k + self.recv_v]
