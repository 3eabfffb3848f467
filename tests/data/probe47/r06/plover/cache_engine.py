"""GPU block cache and CPU swap cache, one tensor per layer each."""
from __future__ import annotations

import torch

from .config import CacheConfig, ModelConfig, ParallelConfig


class _BlockCacheBase:
    def __init__(self, model_config: ModelConfig, cache_config: CacheConfig,
                 parallel_config: ParallelConfig, backend, n_blocks: int, device: str):
        self.block_size = cache_config.block_size
        self.num_kv_heads = model_config.get_num_kv_heads(parallel_config)
        self.head_size = model_config.get_head_size()
        self.num_layers = model_config.get_num_layers(parallel_config)
        self.dtype = model_config.kv_storage_dtype(cache_config)
        self.n_blocks = n_blocks
        self.backend = backend
        self.kv_caches = self._allocate(device)

    def _allocate(self, device: str) -> list[torch.Tensor]:
        shape = self.backend.get_kv_cache_shape(self.n_blocks, self.block_size,
                                                self.num_kv_heads, self.head_size)
        pin = self._pin(device)
        caches = []
        for _ in range(self.num_layers):
            caches.append(torch.empty(shape, dtype=self.dtype, device=device, pin_memory=pin))
        return caches

    def _pin(self, device: str) -> bool:
        return False

    @staticmethod
    def get_cache_block_size(model_config: ModelConfig, cache_config: CacheConfig,
                             parallel_config: ParallelConfig) -> int:
        head = model_config.get_head_size()
        heads = model_config.get_num_kv_heads(parallel_config)
        layers = model_config.get_num_layers(parallel_config)
        per_layer = 2 * cache_config.block_size * heads * head
        dtype = model_config.kv_storage_dtype(cache_config)
        return layers * per_layer * torch.empty((), dtype=dtype, device="meta").element_size()


class GpuBlockCache(_BlockCacheBase):
    pass


class CpuSwapCache(_BlockCacheBase):
    def _pin(self, device: str) -> bool:
        return torch.device(device).type == "cpu" and torch.cuda.is_available()

    def swap_in(self, gpu: GpuBlockCache, src_to_dst: torch.Tensor) -> None:
        for layer, (src, dst) in enumerate(zip(self.kv_caches, gpu.kv_caches)):
            dst[:, src_to_dst[:, 1]] = src[:, src_to_dst[:, 0]].to(dst.device, non_blocking=True)
