import torch

from kvstore.device_pool import DeviceKVPool
from kvstore.shapes import SCALE_DTYPE, kv_shape, paged, scale_shape


class OffloadTier:
    """Host-side tier; pages are evicted here from DeviceKVPool and restored on hit."""

    def __init__(self, gpu_pool: DeviceKVPool, n_pages: int, device="cpu"):
        cfg = gpu_pool.cfg
        self.n_layers = cfg.n_layers
        self.page_size = cfg.page_size
        self.n_pages = n_pages
        self.capacity = n_pages * cfg.page_size
        pin = str(device) == "cpu" and torch.cuda.is_available()
        self.kv = torch.empty(
            paged(kv_shape(cfg.n_layers, self.capacity, cfg.n_kv_heads, cfg.head_dim), cfg.page_size),
            dtype=torch.uint8, device=device, pin_memory=pin)
        self.kv_scale = torch.empty(
            scale_shape(cfg.n_layers, self.n_pages, cfg.n_kv_heads),
            dtype=SCALE_DTYPE, device=device, pin_memory=pin)

    def evict(self, gpu_pool: DeviceKVPool, layer: int, gpu_page: int, host_page: int):
        kv, sc = gpu_pool.page_view(layer, gpu_page)
        self.kv[layer, host_page].copy_(kv.view(torch.uint8), non_blocking=True)
        self.kv_scale[layer, host_page].copy_(sc.amax(dim=0), non_blocking=True)


class KVTiers:
    def __init__(self, gpu_pool: DeviceKVPool, offload: OffloadTier):
        self.gpu_pool = gpu_pool
        self.offload = offload
