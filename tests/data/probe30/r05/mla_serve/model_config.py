"""Model config loading (plain dicts, no schema library)."""
import copy
import json
from functools import cached_property
from typing import Any, Dict, Optional

import torch

_DEFAULT_CONFIG_JSON = """
{
  "architectures": ["DeepseekV2ForCausalLM"],
  "num_hidden_layers": 6,
  "hidden_size": 2048,
  "num_attention_heads": 16,
  "kv_lora_rank": 512,
  "q_lora_rank": null,
  "qk_nope_head_dim": 128,
  "qk_rope_head_dim": 64,
  "v_head_dim": 128,
  "torch_dtype": "bfloat16"
}
"""

_DTYPES = {"bfloat16": torch.bfloat16, "float16": torch.float16, "float32": torch.float32}


def load_config(text: Optional[str] = None, overrides: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    cfg = json.loads(text if text is not None else _DEFAULT_CONFIG_JSON)
    if overrides:
        cfg = copy.deepcopy(cfg)
        cfg.update(overrides)
    return cfg


class MLADims:
    """Derived MLA attention dimensions."""

    def __init__(self, cfg: Dict[str, Any]):
        self.cfg = cfg

    @cached_property
    def num_layers(self) -> int:
        return int(self.cfg["num_hidden_layers"])

    @cached_property
    def latent_dim(self) -> int:
        return int(self.cfg["kv_lora_rank"])

    @cached_property
    def rope_dim(self) -> int:
        return int(self.cfg["qk_rope_head_dim"])

    @cached_property
    def kv_cache_dim(self) -> int:
        return self.latent_dim + self.rope_dim

    @cached_property
    def qk_head_dim(self) -> int:
        return int(self.cfg["qk_nope_head_dim"]) + self.rope_dim

    @cached_property
    def dtype(self) -> torch.dtype:
        return _DTYPES[self.cfg.get("torch_dtype", "bfloat16")]
