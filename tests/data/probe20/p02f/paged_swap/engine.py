from typing import Dict

from .blocks import GpuBlockCache
from .config import CacheConfig, ModelShape
from .swap import CpuSwapCache


class CacheEngine:
    """Owns the GPU block cache and the CPU swap space and moves blocks between them."""

    def __init__(self, shape=ModelShape(), cache_cfg=CacheConfig(), device="cuda", swap_device="cpu"):
        self.shape = shape
        self.cache_cfg = cache_cfg
        self.gpu = GpuBlockCache(shape, cache_cfg, device=device)
        self.cpu = CpuSwapCache(shape, cache_cfg, device=swap_device)

    def _copy(self, src, dst, mapping: Dict[int, int]):
        for s_layer, d_layer in zip(src, dst):
            for s, d in mapping.items():
                d_layer[:, d].copy_(s_layer[:, s], non_blocking=True)

    def swap_out(self, mapping: Dict[int, int]):
        self._copy(self.gpu.gpu_cache, self.cpu.cpu_cache, mapping)

    def swap_in(self, mapping: Dict[int, int]):
        self._copy(self.cpu.cpu_cache, self.gpu.gpu_cache, mapping)
