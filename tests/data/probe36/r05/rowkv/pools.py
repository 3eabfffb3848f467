from typing import List

import torch

from .parallel import ParallelState, local_kv_heads
from .registry import register_pool


class _RowStore:
    def _alloc_rows(self, num_rows: int, device: str, pin: bool = False) -> None:
        shape = (num_rows, self.kv_heads, self.head_dim)
        self.k_rows: List[torch.Tensor] = [
            torch.empty(shape, dtype=self.dtype, device=device, pin_memory=pin) for _ in range(self.depth)
        ]
        self.v_rows: List[torch.Tensor] = [
            torch.empty(shape, dtype=self.dtype, device=device, pin_memory=pin) for _ in range(self.depth)
        ]

    def row_bytes(self) -> int:
        return 2 * self.kv_heads * self.head_dim * self.dtype.itemsize * self.depth


@register_pool("device")
class DeviceRowPool(_RowStore):
    def __init__(self, num_rows, depth, total_kv_heads, head_dim, dtype, parallel: ParallelState, device="cuda"):
        self.num_rows = num_rows
        self.depth = depth
        self.head_dim = head_dim
        self.dtype = dtype
        self.kv_heads = local_kv_heads(total_kv_heads, parallel.attn_tp_size)
        self._alloc_rows(num_rows + 1, device)


@register_pool("swap")
class SwapRowPool(_RowStore):
    def __init__(self, num_rows, depth, total_kv_heads, head_dim, dtype, tp_size, device="cpu"):
        self.num_rows = num_rows
        self.depth = depth
        self.head_dim = head_dim
        self.dtype = dtype
        self.kv_heads = local_kv_heads(total_kv_heads, tp_size)
        self._alloc_rows(num_rows, device, pin=device == "cpu")

    def swap_in(self, pool: DeviceRowPool, src_rows, dst_rows):
        for d in range(self.depth):
            pool.k_rows[d][dst_rows] = self.k_rows[d][src_rows].to(pool.k_rows[d].device, non_blocking=True)
            pool.v_rows[d][dst_rows] = self.v_rows[d][src_rows].to(pool.v_rows[d].device, non_blocking=True)
