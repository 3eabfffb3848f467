"""Contiguous staging buffer for shipping prefilled KV to the decode instance.

The prefill worker gathers a finished request's blocks into this buffer
(token-major, no paging) and the connector sends it over RDMA; the decode
worker scatters it back into its own paged pool.
"""
from typing import List

import torch

from .quant import FP8_DTYPE, SCALE_DTYPE


class KVTransferBuffer:
    def __init__(
        self,
        max_tokens: int,
        num_layers: int,
        num_kv_heads: int,
        head_dim: int,
        group_size: int = 128,
        device="cpu",
    ):
        self.max_tokens = max_tokens
        self.num_layers = num_layers
        self.num_kv_heads = num_kv_heads
        self.head_dim = head_dim
        self.group_size = group_size
        self.device = torch.device(device)

        groups = head_dim // group_size
        pin = self.device.type == "cpu" and torch.cuda.is_available()
        self.k_cache: List[torch.Tensor] = []
        self.v_cache: List[torch.Tensor] = []
        self.k_scale: List[torch.Tensor] = []
        self.v_scale: List[torch.Tensor] = []
        for _ in range(num_layers):
            self.k_cache.append(
                torch.empty((max_tokens, num_kv_heads, head_dim), dtype=FP8_DTYPE, device=self.device, pin_memory=pin)
            )
            self.v_cache.append(
                torch.empty((max_tokens, num_kv_heads, head_dim), dtype=FP8_DTYPE, device=self.device, pin_memory=pin)
            )
            self.k_scale.append(
                torch.empty((max_tokens, num_kv_heads, groups), dtype=SCALE_DTYPE, device=self.device, pin_memory=pin)
            )
            self.v_scale.append(
                torch.empty((max_tokens, num_kv_heads, groups), dtype=SCALE_DTYPE, device=self.device, pin_memory=pin)
            )

    def gather_from(self, pool, block_ids: List[int]) -> int:
        """Copy the given device blocks, in order, into the staging buffer."""
        n = 0
        for b in block_ids:
            for layer in range(self.num_layers):
                sl = slice(n, n + pool.block_size)
                self.k_cache[layer][sl].copy_(pool.k_cache[layer][b])
                self.v_cache[layer][sl].copy_(pool.v_cache[layer][b])
                self.k_scale[layer][sl].copy_(pool.k_scale[layer][b])
                self.v_scale[layer][sl].copy_(pool.v_scale[layer][b])
            n += pool.block_size
        return n
