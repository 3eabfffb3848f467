"""Wires the GPU hybrid pool to its CPU offload tier."""
from __future__ import annotations

from types import SimpleNamespace

from .offload.layout import OffloadLayout
from .offload.tier import CpuOffloadTier
from .pool import HybridWindowPool


def setup_offload(cfg: SimpleNamespace, tp_size: int, capacity_tokens: int,
                  offload_factor: float = 4.0, device: str = "cuda",
                  offload_device: str = "cpu", **offload_kwargs):
    window = cfg.sliding_window
    max_running = offload_kwargs.pop("max_running_requests", 256)
    local_tokens = min(capacity_tokens, window * max_running)
    gpu = HybridWindowPool(cfg, tp_size, capacity_tokens, local_tokens, device=device)
    layout = OffloadLayout.from_config(cfg, tp_size, gpu.dtype)
    tier = CpuOffloadTier(
        layout,
        n_global=len(gpu.global_layers),
        n_local=len(gpu.local_layers),
        global_rows=int(capacity_tokens * offload_factor),
        local_rows=int(local_tokens * offload_factor),
        device=offload_device,
        **offload_kwargs,
    )
    return gpu, tier
