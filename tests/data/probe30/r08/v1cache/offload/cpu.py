"""CPU offloading of KV blocks (block-major host layout)."""
from typing import Dict

import torch

from ..kv_cache_spec import HFTextConfig


class CPUOffloadCache:
    """Host copy keyed by layer name.

    Host blocks are laid out block-major, ``[num_cpu_blocks, 2, block_size,
    heads, head_size]``, so that one block of one layer is a single
    contiguous chunk for DMA.
    """

    def __init__(
        self,
        hf_config: HFTextConfig,
        layer_names,
        block_size: int,
        tp_size: int,
        num_cpu_blocks: Dict[str, int],
        device="cpu",
    ):
        self.device = torch.device(device)
        self.block_size = block_size
        self.num_blocks = dict(num_cpu_blocks)
        self.num_kv_heads = max(1, hf_config.num_key_value_heads // tp_size)
        self.head_size = hf_config.head_dim
        self.dtype = hf_config.torch_dtype
        pin = self.device.type == "cpu" and torch.cuda.is_available()
        self.kv_caches: Dict[str, torch.Tensor] = {
            name: torch.empty(
                (self.num_blocks[name], 2, block_size, self.num_kv_heads, self.head_size),
                dtype=self.dtype,
                device=self.device,
                pin_memory=pin,
            )
            for name in layer_names
        }

    def num_tokens(self, name: str) -> int:
        return self.num_blocks[name] * self.block_size

    def save_block(self, device_cache, name: str, gpu_block: int, cpu_block: int) -> None:
        src = device_cache.kv_caches[name][:, gpu_block]
        self.kv_caches[name][cpu_block].copy_(src, non_blocking=True)
