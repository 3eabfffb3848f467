"""Turns a HuggingFace config dict into the attributes the cache needs."""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Mapping

import torch

_DTYPES = {"bfloat16": torch.bfloat16, "float16": torch.float16, "float32": torch.float32}


def load_arch(hf: Mapping[str, Any], tp_size: int = 1) -> SimpleNamespace:
    n = hf["num_hidden_layers"]
    kinds = list(hf.get("layer_types") or ["full_attention"] * n)
    total_kv = hf.get("num_key_value_heads", hf["num_attention_heads"])
    return SimpleNamespace(
        depth=n,
        full_layers=[i for i, t in enumerate(kinds) if t == "full_attention"],
        swa_layers=[i for i, t in enumerate(kinds) if t == "sliding_attention"],
        sliding_window=hf.get("sliding_window"),
        kv_heads=max(1, total_kv // tp_size),
        head_dim=hf.get("head_dim") or hf["hidden_size"] // hf["num_attention_heads"],
        dtype=_DTYPES[hf.get("torch_dtype", "bfloat16")],
    )
