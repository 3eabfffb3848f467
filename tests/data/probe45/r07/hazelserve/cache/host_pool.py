import torch

from . import register_host_pool


@register_host_pool("hybrid")
class HybridHostKVPool:
    def __init__(self, layer_ids, head_num, head_dim, dtype, budget_bytes, page_size, device="cpu"):
        self.layer_ids = list(layer_ids)
        self.page_size = page_size
        per_token = 2 * len(self.layer_ids) * head_num * head_dim * dtype.itemsize
        tokens = budget_bytes // per_token
        self.size = tokens - tokens % page_size
        self.k_host = [
            torch.empty((self.size, head_num, head_dim), dtype=dtype, device=device)
            for _ in self.layer_ids
        ]
        self.v_host = [
            torch.empty((self.size, head_num, head_dim), dtype=dtype, device=device)
            for _ in self.layer_ids
        ]
