"""Device pool with separate page arenas for full-attention and sliding-window layers."""

import torch

from .config import HybridConfig, LayerKind


class HybridKVPool:
    def __init__(self, cfg: HybridConfig, device="cuda"):
        self.cfg = cfg
        self.page_size = cfg.page_size
        self.full_num_pages = cfg.full_num_pages
        self.swa_num_pages = cfg.swa_num_pages
        dt = cfg.torch_dtype
        self.full_kv = [
            torch.empty((self.full_num_pages, 2, cfg.page_size, cfg.full_kv_heads, cfg.full_head_dim),
                        dtype=dt, device=device)
            for _ in cfg.full_layer_ids
        ]
        self.swa_kv = [
            torch.empty((self.swa_num_pages, 2, cfg.page_size, cfg.swa_kv_heads, cfg.swa_head_dim),
                        dtype=dt, device=device)
            for _ in cfg.swa_layer_ids
        ]
        self.layer_slot = {}
        for kind, ids in ((LayerKind.FULL, cfg.full_layer_ids), (LayerKind.SLIDING, cfg.swa_layer_ids)):
            for j, layer_id in enumerate(ids):
                self.layer_slot[layer_id] = (kind, j)

    def layer_buffer(self, layer_id):
        kind, j = self.layer_slot[layer_id]
        return self.full_kv[j] if kind is LayerKind.FULL else self.swa_kv[j]
