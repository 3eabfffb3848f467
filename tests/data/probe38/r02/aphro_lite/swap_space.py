"""Pinned host swap space for preempted sequences."""
from typing import Dict, List

import torch

from .utils import get_dtype_size, get_kv_cache_torch_dtype


class CPUSwapSpace:
    def __init__(self, model_config, parallel_config, swap_space_bytes: int,
                 block_size: int = 16, cache_dtype: str = "auto", device="cpu"):
        self.block_size = block_size
        self.num_layers = model_config.num_hidden_layers
        self.num_kv_heads = (model_config.num_key_value_heads
                             // parallel_config.tensor_parallel_size)
        self.head_size = model_config.head_size
        self.dtype = get_kv_cache_torch_dtype(cache_dtype, model_config.dtype)
        block_bytes = (2 * self.block_size * self.num_kv_heads * self.head_size
                       * self.num_layers * get_dtype_size(self.dtype))
        self.num_cpu_blocks = max(1, swap_space_bytes // block_bytes)
        pin = device == "cpu" and torch.cuda.is_available()
        self.cpu_caches: List[torch.Tensor] = [
            torch.empty((2, self.num_cpu_blocks, self.block_size,
                         self.num_kv_heads, self.head_size),
                        dtype=self.dtype, device=device, pin_memory=pin)
            for _ in range(self.num_layers)
        ]

    def swap_in(self, gpu_caches: List[torch.Tensor], mapping: Dict[int, int]) -> None:
        src = torch.tensor(list(mapping.keys()), dtype=torch.long)
        dst = torch.tensor(list(mapping.values()), dtype=torch.long)
        for cpu_layer, gpu_layer in zip(self.cpu_caches, gpu_caches):
            gpu_layer[:, dst] = cpu_layer[:, src].to(gpu_layer.device, non_blocking=True)

    def swap_out(self, gpu_caches: List[torch.Tensor], mapping: Dict[int, int]) -> None:
        src = torch.tensor(list(mapping.keys()), dtype=torch.long)
        dst = torch.tensor(list(mapping.values()), dtype=torch.long)
        for cpu_layer, gpu_layer in zip(self.cpu_caches, gpu_caches):
            cpu_layer[:, dst] = gpu_layer[:, src].to(cpu_layer.device)
