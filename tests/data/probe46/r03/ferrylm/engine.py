"""Speculative-decoding engine bootstrap."""
from __future__ import annotations

from typing import Any, Mapping

from .dtypes import resolve
from .pools import PagedKV, make_pool
from .settings import EngineSettings


def _head_dim(hf: Mapping[str, Any]) -> int:
    return hf.get("head_dim") or hf["hidden_size"] // hf["num_attention_heads"]


def setup_spec_pools(settings: EngineSettings, target_hf: Mapping[str, Any],
                     draft_hf: Mapping[str, Any]) -> tuple[PagedKV, PagedKV]:
    """Build the target KV pool and the draft pool that shares its slots."""
    dtype = resolve(settings.kv_dtype, target_hf.get("torch_dtype", "bfloat16"))
    base = dict(
        layers=target_hf["num_hidden_layers"],
        heads=target_hf["num_key_value_heads"] // settings.tp_size,
        head_dim=_head_dim(target_hf),
        slots=settings.max_tokens,
        dtype=dtype,
        device=settings.device,
    )
    target = make_pool("target", base)
    draft = make_pool(
        settings.spec.algorithm,
        base,
        layers=draft_hf["num_hidden_layers"],
        heads=draft_hf.get("num_key_value_heads", target_hf["num_key_value_heads"]),
        head_dim=_head_dim(draft_hf),
        step_tokens=settings.spec.num_draft_tokens,
    )
    return target, draft
