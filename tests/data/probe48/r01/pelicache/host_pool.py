"""Pinned host mirror of the GPU pool, used for hierarchical prefix caching."""
from __future__ import annotations

import torch

from .typing_ext import DeviceLike, LayerBuffers, TokenShape


def host_storage_dtype(kv_cache_dtype: str, model_dtype: torch.dtype) -> torch.dtype:
    """Dtype for host pages.

    fp8 pages are kept as raw bytes on the host: indexing pinned float8 tensors
    is not supported by every CPU build of torch, and the copy kernels only move
    bytes anyway.
    """
    match kv_cache_dtype:
        case "fp8" | "fp8_e4m3":
            return torch.uint8
        case "int8":
            return torch.int8
        case _:
            return model_dtype


class HostKVMirror:
    """Host copy of every layer's K/V rows, sized independently of the GPU pool."""

    __slots__ = ("capacity", "n_layers", "token_shape", "dtype", "pin", "k_host", "v_host")

    def __init__(self, capacity: int, n_layers: int, token_shape: TokenShape,
                 dtype: torch.dtype, device: DeviceLike = "cpu") -> None:
        self.capacity = capacity
        self.n_layers = n_layers
        self.token_shape = token_shape
        self.dtype = dtype
        device = torch.device(device)
        self.pin = device.type == "cpu" and torch.cuda.is_available()
        self.k_host: LayerBuffers = [self._alloc(device) for _ in range(n_layers)]
        self.v_host: LayerBuffers = [self._alloc(device) for _ in range(n_layers)]

    def _alloc(self, device: torch.device) -> torch.Tensor:
        return torch.empty((self.capacity, *self.token_shape), dtype=self.dtype,
                           device=device, pin_memory=self.pin)
