"""CPU swap space for preempted sequences; pages move 1:1 with the GPU pool."""
import torch

from . import quant
from .config import CacheConfig


class CpuSwapSpace:
    def __init__(self, cfg: CacheConfig, pin_memory: bool = True):
        self.cfg = cfg
        heads = cfg.local_kv_heads
        lead = (cfg.num_layers, cfg.num_cpu_pages, cfg.page_size, heads)
        n_scale = quant.scale_cols(cfg.head_dim)
        self.k_pages = torch.empty(lead + (cfg.head_dim,), dtype=quant.STORE_DTYPE, pin_memory=pin_memory)
        self.v_pages = torch.empty(lead + (cfg.head_dim,), dtype=quant.STORE_DTYPE, pin_memory=pin_memory)
        self.k_scales = torch.empty(lead + (n_scale,), dtype=quant.SCALE_DTYPE, pin_memory=pin_memory)
        self.v_scales = torch.empty(lead + (n_scale,), dtype=quant.SCALE_DTYPE, pin_memory=pin_memory)

    def swap_out(self, pool, gpu_pages: torch.Tensor, cpu_pages: torch.Tensor):
        for layer in range(self.cfg.num_layers):
            self.k_pages[layer, cpu_pages] = pool.k_pages[layer][gpu_pages].cpu()
            self.v_pages[layer, cpu_pages] = pool.v_pages[layer][gpu_pages].cpu()
            self.k_scales[layer, cpu_pages] = pool.k_scales[layer][gpu_pages].cpu()
            self.v_scales[layer, cpu_pages] = pool.v_scales[layer][gpu_pages].cpu()

    def swap_in(self, pool, cpu_pages: torch.Tensor, gpu_pages: torch.Tensor):
        dev = pool.k_pages[0].device
        for layer in range(self.cfg.num_layers):
            pool.k_pages[layer][gpu_pages] = self.k_pages[layer, cpu_pages].to(dev, non_blocking=True)
            pool.v_pages[layer][gpu_pages] = self.v_pages[layer, cpu_pages].to(dev, non_blocking=True)
            pool.k_scales[layer][gpu_pages] = self.k_scales[layer, cpu_pages].to(dev, non_blocking=True)
            pool.v_scales[layer][gpu_pages] = self.v_scales[layer, cpu_pages].to(dev, non_blocking=True)
