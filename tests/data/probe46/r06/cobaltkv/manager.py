"""Swap manager construction."""
from __future__ import annotations

from typing import Any

from .arena import GpuKVArena
from .mirror import SwapMirror
from .protocol import KVCacheLike


def make_swap_pair(cfg: Any, tp_size: int, gpu_tokens: int, swap_gib: float, kv_dtype: str = "auto",
                   device: str = "cuda", swap_device: str = "cpu") -> tuple[KVCacheLike, KVCacheLike]:
    """GPU arena plus a CPU mirror sized from the swap budget."""
    arena = GpuKVArena(cfg, tp_size, gpu_tokens, kv_dtype, device)
    swap_tokens = int(swap_gib * (1 << 30)) // arena.token_bytes()
    mirror = SwapMirror(cfg, tp_size, swap_tokens, kv_dtype, swap_device)
    return arena, mirror
