from dataclasses import dataclass

import torch

from kvstore.shapes import DTYPES, SCALE_DTYPE, kv_shape, scale_shape


@dataclass
class PoolConfig:
    n_layers: int = 48
    n_kv_heads: int = 8
    head_dim: int = 128
    max_slots: int = 524_288
    page_size: int = 16
    kv_dtype: str = "fp8"


class DeviceKVPool:
    def __init__(self, cfg: PoolConfig, device="cuda"):
        self.cfg = cfg
        self.n_layers = cfg.n_layers
        self.max_slots = cfg.max_slots
        self.page_size = cfg.page_size
        self.dtype = DTYPES[cfg.kv_dtype]
        self.kv = torch.empty(kv_shape(cfg.n_layers, cfg.max_slots, cfg.n_kv_heads, cfg.head_dim),
                              dtype=self.dtype, device=device)
        self.kv_scale = torch.ones(scale_shape(cfg.n_layers, cfg.max_slots, cfg.n_kv_heads),
                                   dtype=SCALE_DTYPE, device=device)

    @property
    def n_pages(self) -> int:
        return self.max_slots // self.page_size

    def page_view(self, layer: int, page: int):
        s = slice(page * self.page_size, (page + 1) * self.page_size)
        return self.kv[layer, s], self.kv_scale[layer, s]
