from typing import List, Tuple

import torch

from aphro_engine.common.config import (
    STR_DTYPE_TO_TORCH_DTYPE,
    CacheConfig,
    ModelConfig,
    ParallelConfig,
)


class GPUBlockPool:
    """Paged KV cache resident on the worker's accelerator."""

    def __init__(
        self,
        cache_config: CacheConfig,
        model_config: ModelConfig,
        parallel_config: ParallelConfig,
        device: str = "cuda",
    ) -> None:
        self.block_size = cache_config.block_size
        self.num_blocks = cache_config.num_gpu_blocks
        self.head_size = model_config.get_head_size()
        self.num_kv_heads = model_config.get_num_kv_heads(parallel_config)
        self.num_layers = model_config.get_num_layers(parallel_config)
        if cache_config.cache_dtype == "auto":
            self.dtype = model_config.dtype
        else:
            self.dtype = STR_DTYPE_TO_TORCH_DTYPE[cache_config.cache_dtype]
        self.kv_cache: List[torch.Tensor] = self._allocate(device)

    def get_kv_cache_shape(self) -> Tuple[int, ...]:
        return (2, self.num_blocks, self.block_size, self.num_kv_heads, self.head_size)

    def _allocate(self, device: str) -> List[torch.Tensor]:
        shape = self.get_kv_cache_shape()
        return [torch.empty(shape, dtype=self.dtype, device=device) for _ in range(self.num_layers)]
