"""fp8 device cache and the host swap cache it spills to."""
from __future__ import annotations

from typing import Any

import torch

from .scales import ScaleBuffersMixin


class Fp8DeviceCache(ScaleBuffersMixin):
    """GPU cache: fp8 K/V rows with per-head scales (computed by the attention epilogue)."""

    scale_granularity = "head"

    def __init__(self, slots: int, num_layers: int, kv_heads: int, head_dim: int,
                 device: str | torch.device = "cuda") -> None:
        self.slots = slots
        self.num_layers = num_layers
        self.kv_heads = kv_heads
        self.head_dim = head_dim
        shape = (slots, kv_heads, head_dim)
        self.k_data = [torch.empty(shape, dtype=torch.float8_e4m3fn, device=device)
                       for _ in range(num_layers)]
        self.v_data = [torch.empty(shape, dtype=torch.float8_e4m3fn, device=device)
                       for _ in range(num_layers)]
        self._alloc_scales(slots, device)

    @classmethod
    def from_config(cls, model: Any, serve: Any, device: str = "cuda") -> "Fp8DeviceCache":
        return cls(
            slots=serve.gpu_slots,
            num_layers=model.num_hidden_layers,
            kv_heads=model.num_key_value_heads // serve.tensor_parallel,
            head_dim=model.head_dim,
            device=device,
        )


class Fp8SwapCache(ScaleBuffersMixin):
    """Host swap cache: same rows as the device cache, stored as raw bytes."""

    def __init__(self, slots: int, num_layers: int, kv_heads: int, head_dim: int,
                 device: str | torch.device = "cpu") -> None:
        self.slots = slots
        self.num_layers = num_layers
        self.kv_heads = kv_heads
        self.head_dim = head_dim
        shape = (slots, kv_heads * head_dim)
        self.k_data = [torch.empty(shape, dtype=torch.uint8, device=device)
                       for _ in range(num_layers)]
        self.v_data = [torch.empty(shape, dtype=torch.uint8, device=device)
                       for _ in range(num_layers)]
        self._alloc_scales(slots, device)

    @classmethod
    def from_config(cls, model: Any, serve: Any, device: str = "cpu") -> "Fp8SwapCache":
        return cls(
            slots=serve.swap_slots,
            num_layers=model.num_hidden_layers,
            kv_heads=model.num_key_value_heads // serve.tensor_parallel,
            head_dim=model.head_dim,
            device=device,
        )
