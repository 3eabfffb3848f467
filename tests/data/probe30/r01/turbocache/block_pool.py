"""Device-resident paged KV blocks, one K and one V tensor per layer."""
from typing import List, Tuple

import torch

from .config import CacheConfig, ModelConfig, ParallelConfig


class BlockCachePool:
    """Paged KV cache living in device memory.

    Every layer owns a key and a value tensor of shape
    ``(num_blocks, block_size, num_heads, head_dim)`` where ``num_heads`` is
    the number of KV heads held by this tensor-parallel rank.
    """

    def __init__(
        self,
        cache_config: CacheConfig,
        model_config: ModelConfig,
        parallel_config: ParallelConfig,
        device="cuda",
    ):
        self.cache_config = cache_config
        self.model_config = model_config
        self.parallel_config = parallel_config
        self.device = torch.device(device)

        self.num_layers = model_config.num_layers
        self.block_size = cache_config.block_size
        self.num_blocks = cache_config.num_gpu_blocks
        self.dtype = cache_config.torch_dtype

        self.key_blocks: List[torch.Tensor] = []
        self.value_blocks: List[torch.Tensor] = []
        self._allocate()

    @property
    def num_heads(self) -> int:
        world_size = self.parallel_config.tp
        return max(1, self.model_config.num_key_value_heads // world_size)

    @property
    def head_size(self) -> int:
        return self.model_config.head_dim

    def block_shape(self) -> Tuple[int, int, int]:
        return (self.block_size, self.num_heads, self.head_size)

    def _allocate(self) -> None:
        shape = (self.num_blocks, *self.block_shape())
        for _ in range(self.num_layers):
            self.key_blocks.append(torch.empty(shape, dtype=self.dtype, device=self.device))
            self.value_blocks.append(torch.empty(shape, dtype=self.dtype, device=self.device))

    @classmethod
    def get_cache_block_size(
        cls, block_size: int, model_config: ModelConfig, world_size: int, dtype: torch.dtype
    ) -> int:
        num_heads = max(1, model_config.num_key_value_heads // world_size)
        elem = torch.empty((), dtype=dtype).element_size()
        per_layer = 2 * block_size * num_heads * model_config.head_dim * elem
        return per_layer * model_config.num_layers

    def gpu_cache(self) -> List[Tuple[torch.Tensor, torch.Tensor]]:
        return list(zip(self.key_blocks, self.value_blocks))
