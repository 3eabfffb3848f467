"""GPU paged int8 KV pool with per-group fp32 scales."""
import functools

import torch

from . import quant
from .config import CacheConfig


class Int8PagedPool:
    def __init__(self, cfg: CacheConfig, device="cuda"):
        self.cfg = cfg
        self.group = cfg.quant_group
        zeros = functools.partial(torch.zeros, device=device)
        heads = cfg.local_kv_heads
        data_shape = (cfg.num_gpu_pages, cfg.page_size, heads, cfg.head_dim)
        scale_shape = (
            cfg.num_gpu_pages,
            cfg.page_size,
            heads,
            quant.scale_cols(cfg.head_dim, self.group),
        )
        L = cfg.num_layers
        self.k_pages = [zeros(data_shape, dtype=quant.STORE_DTYPE) for _ in range(L)]
        self.v_pages = [zeros(data_shape, dtype=quant.STORE_DTYPE) for _ in range(L)]
        self.k_scales = [zeros(scale_shape, dtype=quant.SCALE_DTYPE) for _ in range(L)]
        self.v_scales = [zeros(scale_shape, dtype=quant.SCALE_DTYPE) for _ in range(L)]

    def store(self, layer: int, page_idx, slot_idx, k: torch.Tensor, v: torch.Tensor):
        kq, ks = quant.quantize(k, self.group)
        vq, vs = quant.quantize(v, self.group)
        self.k_pages[layer][page_idx, slot_idx] = kq
        self.v_pages[layer][page_idx, slot_idx] = vq
        self.k_scales[layer][page_idx, slot_idx] = ks
        self.v_scales[layer][page_idx, slot_idx] = vs

    def load(self, layer: int, page_idx):
        k = quant.dequantize(self.k_pages[layer][page_idx], self.k_scales[layer][page_idx], self.group)
        v = quant.dequantize(self.v_pages[layer][page_idx], self.v_scales[layer][page_idx], self.group)
        return k, v
