from typing import Dict, List

import torch

from swiftserve.worker.gpu_cache import GpuBlockCache


def _is_pin_memory_available(device: str) -> bool:
    return device == "cpu" and torch.cuda.is_available()


class CpuSwapSpace:
    """Host-side blocks used when sequences are preempted by swapping."""

    def __init__(self, gpu_cache: GpuBlockCache, num_blocks: int,
                 device: str = "cpu") -> None:
        self.num_blocks = num_blocks
        self.block_size = gpu_cache.block_size
        self.num_layers = gpu_cache.num_layers
        pin = _is_pin_memory_available(device)
        # Mirror the device block geometry exactly so swap_in/swap_out can be
        # plain block copies.
        self.key_caches: List[torch.Tensor] = [
            torch.empty((num_blocks, *gpu_cache.key_block), dtype=gpu_cache.dtype,
                        pin_memory=pin, device=device)
            for _ in range(self.num_layers)
        ]
        self.value_caches: List[torch.Tensor] = [
            torch.empty((num_blocks, *gpu_cache.value_block), dtype=gpu_cache.dtype,
                        pin_memory=pin, device=device)
            for _ in range(self.num_layers)
        ]

    @property
    def num_tokens(self) -> int:
        return self.num_blocks * self.block_size

    def swap_out(self, gpu_cache: GpuBlockCache, src_to_dst: Dict[int, int]) -> None:
        for layer in range(self.num_layers):
            for src, dst in src_to_dst.items():
                self.key_caches[layer][dst].copy_(gpu_cache.key_caches[layer][src])
                self.value_caches[layer][dst].copy_(gpu_cache.value_caches[layer][src])
