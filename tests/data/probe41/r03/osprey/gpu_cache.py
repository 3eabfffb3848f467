import torch

from .layout import kv_row


class FlatKVArena:
    """One uint8 allocation on the GPU, reinterpreted as [layer, k/v, token, head, dim]."""

    def __init__(self, cfg, device="cuda"):
        heads, head_dim, _, per_token = kv_row(cfg)
        self.num_tokens = cfg.gpu_tokens
        self.storage = torch.empty(self.num_tokens * per_token, dtype=torch.uint8, device=device)
        self.kv = self.storage.view(cfg.cache_dtype).view(
            cfg.dims.num_layers, 2, self.num_tokens, heads, head_dim)

    def key(self, layer):
        return self.kv[layer, 0]

    def value(self, layer):
        return self.kv[layer, 1]
