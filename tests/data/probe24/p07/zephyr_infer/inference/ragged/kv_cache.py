import torch

from zephyr_infer.inference.config import KVCacheConfig


class BlockedKVCache:
    """Layer-major key/value tensors: [layers, blocks, block_size, heads, head_size]."""

    def __init__(self, config: KVCacheConfig, device: str = "cuda") -> None:
        self._config = config
        heads, head_size = config.cache_shape
        shape = (config.num_allocation_groups, config.max_blocks, config.block_size,
                 heads, head_size)
        self.key_cache = torch.zeros(shape, dtype=config.cache_dtype, device=device)
        self.value_cache = torch.zeros(shape, dtype=config.cache_dtype, device=device)

    @property
    def num_layers(self) -> int:
        return self._config.num_allocation_groups

    @property
    def num_tokens(self) -> int:
        return self._config.max_blocks * self._config.block_size

    def layer(self, idx: int):
        return self.key_cache[idx], self.value_cache[idx]
