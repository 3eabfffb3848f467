"""Host memory used by the scheduler's swap-out path."""
from typing import Dict, List

import torch

from .config import CacheConfig, ModelConfig


class HostSwapSpace:
    """CPU blocks for swapped-out sequences.

    Storage is kept in dicts keyed by layer index so that layers can be swapped
    lazily when pipeline stages drain at different times.
    """

    def __init__(self, cache_config: CacheConfig, model_config: ModelConfig,
                 world_size: int = 1, device: str = "cpu"):
        self.num_cpu_blocks = cache_config.num_cpu_blocks
        self.block_size = cache_config.block_size
        self.num_layers = model_config.num_layers
        heads = model_config.num_key_value_heads // world_size
        head_dim = model_config.head_dim
        qp = cache_config.quant_policy
        if qp == 8:
            store_dtype, width = torch.int8, head_dim
        elif qp == 4:
            store_dtype, width = torch.uint8, head_dim // 2
        else:
            store_dtype, width = model_config.dtype, head_dim

        kv_shape = (self.num_cpu_blocks, self.block_size, heads, width)
        # one fp scale per (token, head)
        scale_shape = (self.num_cpu_blocks, self.block_size, heads)

        self.key_cache: Dict[int, torch.Tensor] = {}
        self.value_cache: Dict[int, torch.Tensor] = {}
        self.key_scale_zero: Dict[int, torch.Tensor] = {}
        self.value_scale_zero: Dict[int, torch.Tensor] = {}
        for layer in range(self.num_layers):
            self.key_cache[layer] = torch.empty(kv_shape, dtype=store_dtype, device=device)
            self.value_cache[layer] = torch.empty(kv_shape, dtype=store_dtype, device=device)
            if qp:
                self.key_scale_zero[layer] = torch.empty(scale_shape, dtype=model_config.dtype, device=device)
                self.value_scale_zero[layer] = torch.empty(scale_shape, dtype=model_config.dtype, device=device)
        self._free: List[int] = list(range(self.num_cpu_blocks))

    @property
    def num_cpu_tokens(self) -> int:
        return self.num_cpu_blocks * self.block_size

    def allocate(self, n: int) -> List[int]:
        if n > len(self._free):
            raise RuntimeError("swap space exhausted")
        out, self._free = self._free[:n], self._free[n:]
        return out

    def free(self, blocks: List[int]) -> None:
        self._free.extend(blocks)
