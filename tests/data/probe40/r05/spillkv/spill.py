"""Pinned host spill area: one flat byte allocation, reinterpreted per dtype."""
import torch

from .geometry import kv_token_bytes


class PinnedSpillBuffer:
    def __init__(self, num_tokens: int, num_layers: int, kv_heads: int, head_dim: int,
                 dtype: torch.dtype, pin_memory: bool = True):
        self.num_tokens = num_tokens
        self.dtype = dtype
        self.token_bytes = kv_token_bytes(num_layers, kv_heads, head_dim, dtype)
        self.raw = torch.empty(num_tokens * self.token_bytes, dtype=torch.uint8,
                               device="cpu", pin_memory=pin_memory)
        self.kv = self.raw.view(dtype).view(2, num_layers, num_tokens, kv_heads, head_dim)

    @property
    def k(self):
        return self.kv[0]

    @property
    def v(self):
        return self.kv[1]

    def spill(self, store, host_idx: torch.Tensor, dev_idx: torch.Tensor):
        for layer in range(store.num_layers):
            self.kv[0, layer, host_idx] = store.k_cache[layer][dev_idx].cpu()
            self.kv[1, layer, host_idx] = store.v_cache[layer][dev_idx].cpu()

    def fill(self, store, host_idx: torch.Tensor, dev_idx: torch.Tensor):
        for layer in range(store.num_layers):
            dev = store.k_cache[layer].device
            store.k_cache[layer][dev_idx] = self.kv[0, layer, host_idx].to(dev, non_blocking=True)
            store.v_cache[layer][dev_idx] = self.kv[1, layer, host_idx].to(dev, non_blocking=True)
