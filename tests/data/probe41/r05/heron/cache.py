import torch

from .sizing import FP8, SCALE, heads_per_rank


class Fp8PagedCache:
    """Decode-side GPU pages: fp8 payload plus fp32 per-group scales."""

    def __init__(self, cfg):
        self.page_size = cfg.page_size
        self.num_pages = cfg.num_pages
        heads = heads_per_rank(cfg)
        groups = cfg.head_dim // cfg.scale_group
        data_shape = [cfg.num_pages, 2, cfg.page_size, heads, cfg.head_dim]
        scale_shape = [cfg.num_pages, 2, cfg.page_size, heads, groups]
        self.kv_data, self.kv_scale = [], []
        for _ in range(cfg.num_layers):
            self.kv_data.append(torch.empty(data_shape, dtype=FP8, device=cfg.device))
            self.kv_scale.append(torch.ones(scale_shape, dtype=SCALE, device=cfg.device))

    @property
    def num_slots(self):
        return self.num_pages * self.page_size
