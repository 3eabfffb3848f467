"""Creates the device MLA pool and its host tier."""
from __future__ import annotations

from typing import Any, Mapping

from .kv.base import KV_DTYPES
from .kv.host import LatentHostPool
from .kv.mla_pool import LatentTokenPool
from .model_card import DeepseekCard

GiB = 1 << 30


def init_mla_tiers(raw_config: Mapping[str, Any], num_slots: int, kv_cache_dtype: str = "auto",
                   host_gib: float = 64.0, page_size: int = 64, device: str = "cuda",
                   host_device: str = "cpu"):
    card = DeepseekCard(raw_config)
    dtype = KV_DTYPES[kv_cache_dtype] or KV_DTYPES[card.model_dtype]
    gpu = LatentTokenPool(num_slots, card.num_hidden_layers, card.latent_dim, dtype,
                          page_size=page_size, device=device)
    host = LatentHostPool(gpu, int(host_gib * GiB), device=host_device)
    return gpu, host
