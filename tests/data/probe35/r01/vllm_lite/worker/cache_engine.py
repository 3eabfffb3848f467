"""CacheEngine: owns the paged KV cache on the GPU and the CPU swap space."""
from dataclasses import dataclass
from typing import List

import torch

from vllm_lite.attn_backend import get_attn_backend
from vllm_lite.config import (STR_DTYPE_TO_TORCH_DTYPE, CacheConfig,
                              ModelConfig, ParallelConfig)


@dataclass(frozen=True)
class KVCacheSpec:
    num_layers: int
    num_kv_heads: int
    head_size: int
    block_size: int
    dtype: torch.dtype

    @property
    def block_numel(self) -> int:
        return 2 * self.block_size * self.num_kv_heads * self.head_size

    @property
    def block_bytes(self) -> int:
        elem = torch.tensor([], dtype=self.dtype).element_size()
        return self.num_layers * self.block_numel * elem


class PagedKVCache:
    def __init__(self, spec: KVCacheSpec, num_blocks: int, device):
        self.spec = spec
        self.num_blocks = num_blocks
        self.block_size = spec.block_size
        self.num_layers = spec.num_layers
        self.device = device
        self.kv_caches: List[torch.Tensor] = self._allocate()

    def _allocate(self) -> List[torch.Tensor]:
        raise NotImplementedError

    def __getitem__(self, layer_idx: int) -> torch.Tensor:
        return self.kv_caches[layer_idx]


class DeviceKVCache(PagedKVCache):
    backend = get_attn_backend()

    def _allocate(self):
        s = self.spec
        shape = self.backend.get_kv_cache_shape(
            self.num_blocks, s.block_size, s.num_kv_heads, s.head_size)
        return [torch.zeros(shape, dtype=s.dtype, device=self.device)
                for _ in range(s.num_layers)]


class SwapKVCache(PagedKVCache):
    """Host swap space; blocks are stored flat so swap_blocks can memcpy them."""

    def _allocate(self):
        s = self.spec
        pin = str(self.device) == "cpu" and torch.cuda.is_available()
        return [torch.empty((self.num_blocks, s.block_numel), dtype=s.dtype,
                            device=self.device, pin_memory=pin)
                for _ in range(s.num_layers)]


class CacheEngine:
    def __init__(self, cache_config: CacheConfig, model_config: ModelConfig,
                 parallel_config: ParallelConfig, device="cuda", host_device="cpu"):
        if cache_config.cache_dtype == "auto":
            dtype = STR_DTYPE_TO_TORCH_DTYPE[model_config.dtype]
        else:
            dtype = STR_DTYPE_TO_TORCH_DTYPE[cache_config.cache_dtype]
        self.spec = KVCacheSpec(
            num_layers=model_config.get_num_layers(parallel_config),
            num_kv_heads=model_config.get_num_kv_heads(parallel_config),
            head_size=model_config.get_head_size(),
            block_size=cache_config.block_size,
            dtype=dtype,
        )
        if cache_config.num_cpu_blocks is None:
            cache_config.num_cpu_blocks = cache_config.swap_space_bytes // self.spec.block_bytes
        self.gpu_cache = DeviceKVCache(self.spec, cache_config.num_gpu_blocks, device)
        self.cpu_cache = SwapKVCache(self.spec, cache_config.num_cpu_blocks, host_device)

    @classmethod
    def from_config(cls, cache_config, model_config, parallel_config, device):
        host_device = "meta" if str(device) == "meta" else "cpu"
        return cls(cache_config, model_config, parallel_config, device, host_device)
