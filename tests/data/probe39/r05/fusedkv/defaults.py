"""Deployment defaults; callers pass a dict of overrides."""

import torch

MODEL_DEFAULTS = {
    "num_layers": 28,
    "num_kv_heads": 4,
    "head_dim": 128,
    "dtype": "float16",
    "tp_size": 2,
    "tp_rank": 0,
}

_DTYPES = {
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "float32": torch.float32,
}


def merge(overrides=None):
    cfg = dict(MODEL_DEFAULTS)
    for key, val in (overrides or {}).items():
        if key not in cfg:
            raise KeyError(f"unknown setting {key}")
        cfg[key] = val
    if cfg["num_kv_heads"] % cfg["tp_size"]:
        raise ValueError("kv heads must divide evenly across tensor-parallel ranks")
    return cfg


def resolve_dtype(cfg):
    return _DTYPES[cfg["dtype"]]


def local_kv_heads(cfg):
    return cfg["num_kv_heads"] // cfg["tp_size"]


_HF_KEYS = {
    "num_hidden_layers": "num_layers",
    "num_key_value_heads": "num_kv_heads",
    "torch_dtype": "dtype",
}


def overrides_from_hf(raw, tp_size=None):
    """Translate a HF ``config.json`` dict into overrides for ``merge``."""
    out = {ours: raw[theirs] for theirs, ours in _HF_KEYS.items() if theirs in raw}
    if "head_dim" in raw:
        out["head_dim"] = raw["head_dim"]
    elif "hidden_size" in raw and "num_attention_heads" in raw:
        out["head_dim"] = raw["hidden_size"] // raw["num_attention_heads"]
    if tp_size is not None:
        out["tp_size"] = tp_size
    return out
