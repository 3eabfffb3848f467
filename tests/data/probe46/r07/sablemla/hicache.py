"""Entry point used by the scheduler to build both cache tiers."""
from __future__ import annotations

from typing import Any, Mapping

from .device_cache import PackedLatentCache
from .formats import FORMAT_BY_NAME
from .host_store import HOST_LAYOUTS, HostTierSettings, LatentHostStore


def init_latent_tiers(hf: Mapping[str, Any], kv_cache_dtype: str, num_pages: int,
                      host: HostTierSettings | None = None,
                      device: str = "cuda") -> tuple[PackedLatentCache, LatentHostStore]:
    host = host or HostTierSettings()
    fmt = FORMAT_BY_NAME[kv_cache_dtype]
    layers = hf["num_hidden_layers"] + hf.get("num_nextn_predict_layers", 0)
    rank, rope = hf["kv_lora_rank"], hf["qk_rope_head_dim"]
    dev = PackedLatentCache(fmt, layers, rank, rope, num_pages, device=device)
    store_cls = HOST_LAYOUTS[host.layout]
    tier = store_cls(fmt, layers, rank, rope, int(dev.num_tokens * host.ratio), host.device)
    return dev, tier
