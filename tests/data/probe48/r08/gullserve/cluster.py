"""Builds the prefill/decode cache pair for one TP rank of a PD deployment."""
from __future__ import annotations

from typing import Any

from .caches import DecodeKVCache, PrefillKVCache
from .quant import KVQuantConfig


def build_pd_caches(model_cfg: Any, quant: KVQuantConfig, tp_size: int, prefill_tokens: int,
                    decode_tokens: int, device: str = "cuda", decode_device: str = "cuda"):
    kv_heads = model_cfg.num_key_value_heads
    head_dim = getattr(model_cfg, "head_dim", None) or (
        model_cfg.hidden_size // model_cfg.num_attention_heads)
    prefill = PrefillKVCache(
        max_tokens=prefill_tokens,
        n_layers=model_cfg.num_hidden_layers,
        heads_per_rank=max(1, kv_heads // tp_size),
        head_dim=head_dim,
        quant=quant,
        device=device,
    )
    decode = DecodeKVCache(
        capacity=decode_tokens,
        n_layers=model_cfg.num_hidden_layers,
        total_kv_heads=kv_heads,
        tp_size=tp_size,
        head_dim=head_dim,
        quant=quant,
        device=decode_device,
    )
    return prefill, decode
