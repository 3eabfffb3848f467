"""GPU-resident token KV pool."""
from __future__ import annotations

import torch

from .typing_ext import DeviceLike, LayerBuffers, TokenShape


def resolve_cache_dtype(kv_cache_dtype: str, model_dtype: torch.dtype) -> torch.dtype:
    """Map the ``--kv-cache-dtype`` flag to the dtype the attention kernels read."""
    match kv_cache_dtype:
        case "auto":
            return model_dtype
        case "fp8" | "fp8_e4m3":
            return torch.float8_e4m3fn
        case "fp8_e5m2":
            return torch.float8_e5m2
        case "int8":
            return torch.int8
        case other:
            raise ValueError(f"unsupported kv cache dtype: {other!r}")


class DeviceKVPool:
    """Per-layer K/V buffers indexed by token slot. Slot 0 is the padding slot."""

    __slots__ = ("max_tokens", "n_layers", "token_shape", "dtype", "device", "k_bufs", "v_bufs")

    def __init__(self, max_tokens: int, n_layers: int, token_shape: TokenShape,
                 dtype: torch.dtype, device: DeviceLike = "cuda") -> None:
        self.max_tokens = max_tokens
        self.n_layers = n_layers
        self.token_shape = token_shape
        self.dtype = dtype
        self.device = torch.device(device)
        rows = max_tokens + 1
        self.k_bufs: LayerBuffers = [
            torch.empty((rows, *token_shape), dtype=dtype, device=self.device)
            for _ in range(n_layers)
        ]
        self.v_bufs: LayerBuffers = [
            torch.empty((rows, *token_shape), dtype=dtype, device=self.device)
            for _ in range(n_layers)
        ]

    def bytes_per_token(self) -> int:
        heads, dim = self.token_shape
        return 2 * self.n_layers * heads * dim * self.dtype.itemsize
