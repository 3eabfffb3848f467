"""CPU swap space for preempted sequences."""
from typing import Dict, List

import torch

from .config import CacheSpec, ModelSpec
from .dtypes import STR_DTYPE_TO_TORCH_DTYPE


class CPUSwapSpace:
    def __init__(
        self,
        num_layers: int,
        num_blocks: int,
        block_size: int,
        num_kv_heads: int,
        head_size: int,
        dtype: torch.dtype,
        device="cpu",
    ):
        self.num_layers = num_layers
        self.num_blocks = num_blocks
        self.block_size = block_size
        self.dtype = dtype
        self.device = torch.device(device)
        pin = self.device.type == "cpu" and torch.cuda.is_available()

        self.key_cache: List[torch.Tensor] = []
        self.value_cache: List[torch.Tensor] = []
        for _ in range(num_layers):
            shape = (num_blocks, block_size, num_kv_heads, head_size)
            self.key_cache.append(torch.empty(shape, dtype=dtype, device=self.device, pin_memory=pin))
            self.value_cache.append(torch.empty(shape, dtype=dtype, device=self.device, pin_memory=pin))

    @classmethod
    def from_config(cls, model: ModelSpec, cache: CacheSpec, device="cpu") -> "CPUSwapSpace":
        return cls(
            num_layers=model.num_layers,
            num_blocks=cache.num_cpu_blocks,
            block_size=cache.block_size,
            num_kv_heads=model.num_kv_heads,
            head_size=model.head_size,
            dtype=STR_DTYPE_TO_TORCH_DTYPE.get(cache.cache_dtype, torch.uint8),
            device=device,
        )

    @property
    def num_slots(self) -> int:
        return self.num_blocks * self.block_size

    def swap_out(self, gpu_cache, block_mapping: Dict[int, int]) -> None:
        for layer in range(self.num_layers):
            for src, dst in block_mapping.items():
                self.key_cache[layer][dst].copy_(gpu_cache.key_cache[layer][src])
                self.value_cache[layer][dst].copy_(gpu_cache.value_cache[layer][src])
