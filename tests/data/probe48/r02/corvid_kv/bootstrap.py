"""Cache setup for one tensor-parallel worker."""
from __future__ import annotations

from typing import Any

import torch

from .device import GpuTokenPool
from .host import HostTokenMirror
from .specs import attention_specs


def setup_cache(model_cfg: Any, cache_cfg: Any, tp_size: int,
                device: str = "cuda", host_device: str = "cpu"):
    heads = model_cfg.num_attention_heads
    kv_heads = getattr(model_cfg, "num_key_value_heads", heads)
    head_dim = getattr(model_cfg, "head_dim", None) or model_cfg.hidden_size // heads
    specs = attention_specs(
        kv_heads=kv_heads // tp_size,
        head_dim=head_dim,
        cache_dtype=cache_cfg.cache_dtype,
        model_dtype=getattr(torch, model_cfg.torch_dtype),
    )
    gpu = GpuTokenPool(specs, num_slots=cache_cfg.gpu_slots,
                       num_layers=model_cfg.num_hidden_layers, device=device)
    host = HostTokenMirror.mirror_of(gpu, num_slots=cache_cfg.host_slots, device=host_device)
    return gpu, host
