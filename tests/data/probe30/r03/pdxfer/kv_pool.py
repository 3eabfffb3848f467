"""Device paged KV pool with FP8 payload and per-group float32 scales."""
from typing import List

import torch

from .quant import FP8_DTYPE, KV_QUANT_GROUP_SIZE, SCALE_DTYPE, num_scale_groups, quantize_per_group


class Fp8PagedKVPool:
    def __init__(
        self,
        num_blocks: int,
        block_size: int,
        num_layers: int,
        num_kv_heads: int,
        head_dim: int,
        group_size: int = KV_QUANT_GROUP_SIZE,
        device="cuda",
    ):
        self.num_blocks = num_blocks
        self.block_size = block_size
        self.num_layers = num_layers
        self.num_kv_heads = num_kv_heads
        self.head_dim = head_dim
        self.group_size = group_size
        self.device = torch.device(device)

        data_shape = (num_blocks, block_size, num_kv_heads, head_dim)
        scale_shape = (num_blocks, block_size, num_kv_heads, num_scale_groups(head_dim, group_size))

        self.k_cache: List[torch.Tensor] = []
        self.v_cache: List[torch.Tensor] = []
        self.k_scale: List[torch.Tensor] = []
        self.v_scale: List[torch.Tensor] = []
        for _ in range(num_layers):
            self.k_cache.append(torch.empty(data_shape, dtype=FP8_DTYPE, device=self.device))
            self.v_cache.append(torch.empty(data_shape, dtype=FP8_DTYPE, device=self.device))
            self.k_scale.append(torch.ones(scale_shape, dtype=SCALE_DTYPE, device=self.device))
            self.v_scale.append(torch.ones(scale_shape, dtype=SCALE_DTYPE, device=self.device))

    @property
    def num_tokens(self) -> int:
        return self.num_blocks * self.block_size

    def store(self, layer: int, slot_mapping: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> None:
        qk, sk = quantize_per_group(k, self.group_size)
        qv, sv = quantize_per_group(v, self.group_size)
        blk, off = slot_mapping // self.block_size, slot_mapping % self.block_size
        self.k_cache[layer][blk, off] = qk
        self.v_cache[layer][blk, off] = qv
        self.k_scale[layer][blk, off] = sk
        self.v_scale[layer][blk, off] = sv
