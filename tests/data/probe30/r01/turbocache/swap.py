"""Host swap space used when sequences are preempted out of device memory."""
from typing import Dict, List

import torch

from .config import CacheConfig, ModelConfig


class HostSwapPool:
    """CPU-side copy of the block cache.

    Blocks are swapped out of :class:`BlockCachePool` under memory pressure
    and swapped back in before the sequence is scheduled again.
    """

    def __init__(self, cache_config: CacheConfig, model_config: ModelConfig, device="cpu"):
        self.cache_config = cache_config
        self.model_config = model_config
        self.device = torch.device(device)

        self.num_layers = model_config.num_layers
        self.block_size = cache_config.block_size
        self.num_blocks = cache_config.num_cpu_blocks
        self.dtype = cache_config.torch_dtype
        self.num_heads = model_config.num_key_value_heads
        self.head_size = model_config.head_dim

        pin = self.device.type == "cpu" and torch.cuda.is_available()
        shape = (self.num_blocks, self.block_size, self.num_heads, self.head_size)
        self.key_blocks: List[torch.Tensor] = [
            torch.empty(shape, dtype=self.dtype, device=self.device, pin_memory=pin)
            for _ in range(self.num_layers)
        ]
        self.value_blocks: List[torch.Tensor] = [
            torch.empty(shape, dtype=self.dtype, device=self.device, pin_memory=pin)
            for _ in range(self.num_layers)
        ]

    def swap_out(self, device_pool, mapping: Dict[int, int]) -> None:
        """Copy device blocks ``src`` into host blocks ``dst``."""
        for layer in range(self.num_layers):
            for src, dst in mapping.items():
                self.key_blocks[layer][dst].copy_(device_pool.key_blocks[layer][src], non_blocking=True)
                self.value_blocks[layer][dst].copy_(device_pool.value_blocks[layer][src], non_blocking=True)

    def swap_in(self, device_pool, mapping: Dict[int, int]) -> None:
        for layer in range(self.num_layers):
            for src, dst in mapping.items():
                device_pool.key_blocks[layer][dst].copy_(self.key_blocks[layer][src], non_blocking=True)
                device_pool.value_blocks[layer][dst].copy_(self.value_blocks[layer][src], non_blocking=True)
