from typing import Dict, List, NamedTuple

import torch

from aphro_engine.common.config import STR_DTYPE_TO_TORCH_DTYPE, CacheConfig, ModelConfig


class SwapBlockShape(NamedTuple):
    num_blocks: int
    block_size: int
    num_kv_heads: int
    head_size: int

    def as_size(self) -> torch.Size:
        return torch.Size((2, self.num_blocks, self.block_size, self.num_kv_heads, self.head_size))


class CPUSwapPool:
    """Host-side block pool that receives blocks of preempted sequences."""

    def __init__(
        self,
        cache_config: CacheConfig,
        model_config: ModelConfig,
        num_layers: int,
        pin_memory: bool = False,
    ) -> None:
        self.block_size = cache_config.block_size
        self.num_layers = num_layers
        self.head_size = model_config.get_head_size()
        self.num_kv_heads = model_config.get_total_num_kv_heads()
        if cache_config.cache_dtype == "auto":
            self.dtype = model_config.dtype
        else:
            self.dtype = STR_DTYPE_TO_TORCH_DTYPE[cache_config.cache_dtype]
        num_blocks = cache_config.num_cpu_blocks
        if num_blocks is None:
            per_block = self.block_bytes()
            num_blocks = cache_config.swap_space_bytes // (per_block * num_layers)
        self.shape = SwapBlockShape(num_blocks, self.block_size, self.num_kv_heads, self.head_size)
        self.kv_cache: List[torch.Tensor] = [
            torch.empty(self.shape.as_size(), dtype=self.dtype, device="cpu", pin_memory=pin_memory)
            for _ in range(num_layers)
        ]

    def block_bytes(self) -> int:
        elem = torch.empty((), dtype=self.dtype).element_size()
        return 2 * self.block_size * self.num_kv_heads * self.head_size * elem

    def swap_in(self, gpu_cache: List[torch.Tensor], src_to_dst: Dict[int, int]) -> None:
        for src_layer, dst_layer in zip(self.kv_cache, gpu_cache):
            swap_blocks(src_layer, dst_layer, src_to_dst)

    def swap_out(self, gpu_cache: List[torch.Tensor], src_to_dst: Dict[int, int]) -> None:
        for src_layer, dst_layer in zip(gpu_cache, self.kv_cache):
            swap_blocks(src_layer, dst_layer, src_to_dst)


def _block_rows(cache: torch.Tensor) -> torch.Tensor:
    # (2, num_blocks, ...) -> (2, num_blocks, bytes_per_block)
    return cache.view(torch.uint8).reshape(2, cache.shape[1], -1)


def swap_blocks(src: torch.Tensor, dst: torch.Tensor, block_mapping: Dict[int, int]) -> None:
    src_rows, dst_rows = _block_rows(src), _block_rows(dst)
    nbytes = min(src_rows.shape[-1], dst_rows.shape[-1])
    for s, d in block_mapping.items():
        dst_rows[:, d, :nbytes].copy_(src_rows[:, s, :nbytes], non_blocking=True)
