"""Shape helpers shared by the paged KV cache and the host tiers.

Config is the plain dict read from ``mlc-chat-config.json``.
"""
import torch

DTYPE_MAP = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32}

DEFAULT_CONFIG = {
    "num_hidden_layers": 26,
    "num_key_value_heads": 4,
    "head_dim": 256,
    "kv_dtype": "float16",
    "page_size": 16,
    "num_pages": 128,
    "num_host_pages": 256,
    "host_tier": "staging",
}


def kv_dtype(cfg):
    return DTYPE_MAP[cfg["kv_dtype"]]


def page_shape(cfg):
    """Layout of one page: ``(2, num_kv_heads, page_size, head_dim)``."""
    return (2, cfg["num_key_value_heads"], cfg["page_size"], cfg["head_dim"])


def page_nbytes(cfg):
    n = 1
    for d in page_shape(cfg):
        n *= d
    return n * kv_dtype(cfg).itemsize


def merged_config(overrides=None):
    cfg = dict(DEFAULT_CONFIG)
    cfg.update(overrides or {})
    return cfg
