"""Allocates the state tiers for a Mamba-2 checkpoint."""
from __future__ import annotations

from typing import Any

import torch

from .host_state import HostStateMirror
from .state_pool import MambaStatePool


def allocate_state_tiers(cfg: Any, tp_size: int, max_running: int, max_paused: int,
                         device: str = "cuda", host_device: str = "cpu"):
    """Returns ``(gpu_pool, host_mirror)``; one slot holds one request's state."""
    intermediate = cfg.expand * cfg.hidden_size
    n_heads = cfg.num_heads
    if n_heads % tp_size or intermediate % tp_size:
        raise ValueError(f"tp_size={tp_size} does not divide the mixer")
    gpu = MambaStatePool(
        capacity=max_running + 1,
        depth=cfg.num_hidden_layers,
        intermediate=intermediate,
        n_groups=cfg.n_groups,
        d_state=cfg.state_size,
        n_heads=n_heads,
        head_dim=cfg.head_dim,
        d_conv=cfg.conv_kernel,
        tp_size=tp_size,
        conv_dtype=getattr(torch, cfg.torch_dtype),
        device=device,
    )
    host = HostStateMirror(
        gpu,
        capacity=max_paused,
        intermediate=intermediate,
        n_groups=cfg.n_groups,
        d_state=cfg.state_size,
        tp_size=tp_size,
        device=host_device,
    )
    return gpu, host
