"""Staging buffer registered with the RDMA engine for prefill -> decode KV transfer."""
import torch

from pd_disagg.layout import KVLayout, scale_bytes, token_bytes


class KVTransferBuffer:
    def __init__(self, layout: KVLayout, num_tokens: int, device="cuda"):
        self.layout = layout
        self.num_tokens = num_tokens
        self.n_layers = layout.num_layers
        self.device = device
        kv_row = token_bytes(layout)
        sc_row = scale_bytes(layout)
        # Raw bytes: the transport engine is dtype-agnostic.
        self.k_cache = torch.empty((self.n_layers, num_tokens, kv_row), dtype=torch.uint8, device=device)
        self.v_cache = torch.empty((self.n_layers, num_tokens, kv_row), dtype=torch.uint8, device=device)
        self.k_scale = torch.empty((self.n_layers, num_tokens, sc_row), dtype=torch.uint8, device=device)
        self.v_scale = torch.empty((self.n_layers, num_tokens, sc_row), dtype=torch.uint8, device=device)

    def registered_regions(self):
        return [(t.data_ptr(), t.nbytes) for t in (self.k_cache, self.v_cache, self.k_scale, self.v_scale)]

    def stage_layer(self, li: int, k, v, ks, vs, n: int):
        self.k_cache[li, :n].copy_(k.reshape(n, -1).view(torch.uint8))
        self.v_cache[li, :n].copy_(v.reshape(n, -1).view(torch.uint8))
        self.k_scale[li, :n].copy_(ks.reshape(n, -1).view(torch.uint8))
        self.v_scale[li, :n].copy_(vs.reshape(n, -1).view(torch.uint8))
