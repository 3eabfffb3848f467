import json
from typing import Any, Dict

DEFAULT_ENGINE_CONFIG = """
{
  "model": {
    "num_layers": 27,
    "num_key_value_heads": 16,
    "k_head_dim": 192,
    "v_head_dim": 128,
    "dtype": "float16"
  },
  "cache": {
    "block_size": 64,
    "num_gpu_blocks": 1024,
    "num_cpu_blocks": 256,
    "quant_policy": 4
  },
  "dist": {"tp": 1}
}
"""


def load_engine_config(text: str = DEFAULT_ENGINE_CONFIG, **overrides: Any) -> Dict[str, Any]:
    cfg = json.loads(text)
    for dotted, value in overrides.items():
        section, key = dotted.split("__", 1)
        cfg[section][key] = value
    return cfg
