"""Deployment settings. The operator ships a TOML file; the default below is
what the staging cluster runs (DeepSeek-V2-Lite served in plain MHA mode)."""
import tomllib
from types import SimpleNamespace

DEFAULT_TOML = """
[model]
name = "deepseek-ai/DeepSeek-V2-Lite-Chat"
num_layers = 27
num_attention_heads = 16
qk_nope_head_dim = 128
qk_rope_head_dim = 64
v_head_dim = 128
dtype = "bfloat16"

[parallel]
tp = 2

[prefill]
device = "cuda:0"
num_blocks = 4096
block_size = 64

[decode]
device = "cuda:1"
recv_blocks = 1024
block_size = 64
"""


def _ns(d):
    return SimpleNamespace(**{k: _ns(v) if isinstance(v, dict) else v
                              for k, v in d.items()})


def load_settings(text: str | None = None, **overrides) -> SimpleNamespace:
    data = tomllib.loads(text if text is not None else DEFAULT_TOML)
    for dotted, value in overrides.items():
        section, key = dotted.split("__", 1)
        data.setdefault(section, {})[key] = value
    return _ns(data)
