"""Accessors over a raw HuggingFace config dict."""
from __future__ import annotations

from typing import Any, Mapping

import torch

_TORCH_DTYPES = {
    "bfloat16": torch.bfloat16,
    "float16": torch.float16,
    "float32": torch.float32,
    "fp8_e4m3": torch.float8_e4m3fn,
    "fp8_e5m2": torch.float8_e5m2,
}


def text_config(hf: Mapping[str, Any]) -> Mapping[str, Any]:
    return hf.get("text_config", hf)


def total_kv_heads(hf: Mapping[str, Any]) -> int:
    cfg = text_config(hf)
    return cfg.get("num_key_value_heads", cfg["num_attention_heads"])


def head_dim(hf: Mapping[str, Any]) -> int:
    cfg = text_config(hf)
    return cfg.get("head_dim") or cfg["hidden_size"] // cfg["num_attention_heads"]


def num_layers(hf: Mapping[str, Any]) -> int:
    return text_config(hf)["num_hidden_layers"]


def to_torch_dtype(name: str, hf: Mapping[str, Any]) -> torch.dtype:
    if name == "auto":
        name = text_config(hf).get("torch_dtype", "bfloat16")
    return _TORCH_DTYPES[name]
