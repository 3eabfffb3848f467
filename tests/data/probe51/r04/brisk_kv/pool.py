"""GPU pool: int8 K/V codes plus (scale, zero) pairs per group of head_dim."""
from __future__ import annotations

import math

import torch

from .settings import CacheSettings


class Int8TokenPool:
    def __init__(self, settings: CacheSettings, free_bytes: int, device: str = "cuda"):
        self.settings = settings
        self.device = device
        self.size = self._fit_tokens(free_bytes)
        code_shape = (settings.kv_heads, settings.head_dim)
        self.k_q = self._alloc_layers(code_shape, torch.int8)
        self.v_q = self._alloc_layers(code_shape, torch.int8)
        self.k_qparams = self._alloc_layers(settings.param_shape, settings.qparam_dtype)
        self.v_qparams = self._alloc_layers(settings.param_shape, settings.qparam_dtype)

    def token_bytes(self) -> int:
        s = self.settings
        codes = s.kv_heads * s.head_dim
        params = math.prod(s.param_shape) * s.qparam_dtype.itemsize
        return 2 * (codes + params) * s.num_layers

    def _fit_tokens(self, free_bytes: int) -> int:
        usable = int(free_bytes * self.settings.gpu_mem_fraction)
        return usable // self.token_bytes()

    def _alloc_layers(self, per_token: tuple, dtype: torch.dtype) -> list:
        return [
            torch.empty((self.size + 1, *per_token), dtype=dtype, device=self.device)
            for _ in range(self.settings.num_layers)
        ]
