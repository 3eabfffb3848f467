"""Wires the model config and cache settings into the two page pools."""
from __future__ import annotations

from typing import Any

import torch

from .paged import HostPageTier, PagedDevicePool
from .settings import CacheSettings


def init_page_pools(model_cfg: Any, settings: CacheSettings,
                    device: str = "cuda", host_device: str = "cpu"):
    heads = model_cfg.num_attention_heads
    kv_heads = model_cfg.num_key_value_heads
    head_dim = model_cfg.hidden_size // heads
    if kv_heads % settings.tp_size:
        raise ValueError("kv heads must divide evenly across tensor-parallel ranks")
    dtype = settings.kv_dtype or getattr(torch, model_cfg.torch_dtype)
    gpu = PagedDevicePool(
        num_pages=settings.pages_for(settings.gpu_tokens, settings.page_size),
        page_size=settings.page_size,
        depth=model_cfg.num_hidden_layers,
        kv_heads=kv_heads // settings.tp_size,
        head_dim=head_dim,
        dtype=dtype,
        device=device,
    )
    host = HostPageTier(
        gpu,
        num_pages=settings.pages_for(settings.host_tokens, settings.host_page_size),
        page_size=settings.host_page_size,
        device=host_device,
    )
    return gpu, host
