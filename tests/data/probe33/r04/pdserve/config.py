"""Nested dict configuration (loaded from YAML in deployment) and small helpers."""

import copy

import torch

DEFAULT_CONFIG = {
    "model": {"num_hidden_layers": 30, "num_key_value_heads": 8, "head_dim": 128},
    "cache": {"kv_dtype": "fp8_e4m3", "scale_dtype": "float32", "page_size": 32, "num_pages": 1024},
    "parallel": {"pp_size": 4, "pp_rank": 3},
    "transfer": {"num_pages": 256, "protocol": "rdma"},
}

DTYPES = {
    "fp8_e4m3": torch.float8_e4m3fn,
    "bf16": torch.bfloat16,
    "fp16": torch.float16,
    "float32": torch.float32,
}


def merge_config(overrides=None, base=DEFAULT_CONFIG):
    cfg = copy.deepcopy(base)
    for section, values in (overrides or {}).items():
        cfg.setdefault(section, {}).update(values)
    return cfg


def layer_range(cfg):
    """[start, end) of the layers owned by this pipeline stage; earlier stages take the remainder."""
    n = cfg["model"]["num_hidden_layers"]
    pp_size, pp_rank = cfg["parallel"]["pp_size"], cfg["parallel"]["pp_rank"]
    base, extra = divmod(n, pp_size)
    start = pp_rank * base + min(pp_rank, extra)
    return start, start + base + (1 if pp_rank < extra else 0)
