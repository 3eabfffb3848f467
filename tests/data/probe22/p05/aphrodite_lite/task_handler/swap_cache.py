"""CPU swap space for preempted sequences (swap-out / swap-in)."""
from typing import Dict, List

import torch

from ..common.utils import is_pin_memory_available


class CpuSwapCache:

    def __init__(self, num_layers: int, num_blocks: int, block_size: int,
                 num_kv_heads: int, head_size: int, dtype: torch.dtype, attn_backend,
                 device: str = "cpu"):
        self.num_layers = num_layers
        self.num_blocks = num_blocks
        self.block_size = block_size
        pin_memory = device == "cpu" and is_pin_memory_available()
        shape = attn_backend.get_kv_cache_shape(num_blocks, block_size, num_kv_heads,
                                                head_size)
        self.cpu_cache: List[torch.Tensor] = [
            torch.zeros(shape, dtype=dtype, pin_memory=pin_memory, device=device)
            for _ in range(num_layers)
        ]

    @classmethod
    def from_engine(cls, engine, num_blocks: int, device: str = "cpu") -> "CpuSwapCache":
        return cls(num_layers=engine.num_layers,
                   num_blocks=num_blocks,
                   block_size=engine.block_size,
                   num_kv_heads=engine.model_config.get_total_num_kv_heads(),
                   head_size=engine.head_size,
                   dtype=engine.dtype,
                   attn_backend=engine.attn_backend,
                   device=device)

    def swap_in(self, gpu_cache: List[torch.Tensor], src_to_dst: Dict[int, int]) -> None:
        for i in range(self.num_layers):
            for src, dst in src_to_dst.items():
                gpu_cache[i][:, dst].copy_(self.cpu_cache[i][:, src], non_blocking=True)

    def swap_out(self, gpu_cache: List[torch.Tensor], src_to_dst: Dict[int, int]) -> None:
        for i in range(self.num_layers):
            for src, dst in src_to_dst.items():
                self.cpu_cache[i][:, dst].copy_(gpu_cache[i][:, src], non_blocking=True)
