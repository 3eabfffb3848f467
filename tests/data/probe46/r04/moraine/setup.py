"""Sizing and construction of the device pool and its offload tier."""
from __future__ import annotations

from typing import Any, Mapping

import torch

from .device_pool import HybridWindowPool
from .offload import HostOffloadTier
from .shapes import TierShape, split_from_pattern, split_from_types

_DT = {"bfloat16": torch.bfloat16, "float16": torch.float16}


def create_cache_tiers(hf: Mapping[str, Any], *, tp_size: int, gpu_blocks: int, block_tokens: int,
                       max_running: int, host_tokens: int, device: str = "cuda",
                       host_device: str = "cpu") -> tuple[HybridWindowPool, HostOffloadTier]:
    dtype = _DT[hf.get("torch_dtype", "bfloat16")]
    heads = max(1, hf["num_key_value_heads"] // tp_size)
    head_dim = hf.get("head_dim", hf["hidden_size"] // hf["num_attention_heads"])
    window_blocks = max_running * (-(-hf["sliding_window"] // block_tokens) + 1)
    full = TierShape(0, gpu_blocks, block_tokens, heads, head_dim, dtype)
    window = full._replace(num_blocks=min(window_blocks, gpu_blocks))
    dev_split = split_from_pattern(hf)
    pool = HybridWindowPool(dev_split, full._replace(num_layers=len(dev_split.global_ids)),
                            window._replace(num_layers=len(dev_split.local_ids)), device)

    host_split = split_from_types(hf)
    h_full = HostOffloadTier.rebucket(full, host_tokens)
    h_window = HostOffloadTier.rebucket(window, host_tokens // 4)
    tier = HostOffloadTier(host_split, h_full, h_window, host_device)
    return pool, tier
