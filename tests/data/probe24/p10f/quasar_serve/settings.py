import tomllib
from typing import Any, Dict

import torch

DEFAULT_TOML = """
[model]
name = "deepseek-v2-lite-mha"
num_layers = 27
num_attention_heads = 16
qk_nope_head_dim = 128
qk_rope_head_dim = 64
v_head_dim = 128
dtype = "bfloat16"

[runtime]
tp_size = 2
max_total_tokens = 131072
device_pool = "mha"
host_pool = "mha_host"
host_ratio = 3.0
"""


def load_settings(text: str = DEFAULT_TOML) -> Dict[str, Any]:
    cfg = tomllib.loads(text)
    m = cfg["model"]
    m["qk_head_dim"] = m["qk_nope_head_dim"] + m["qk_rope_head_dim"]
    m["torch_dtype"] = getattr(torch, m["dtype"])
    return cfg
