"""Model-side description of the attention KV footprint."""
from __future__ import annotations

from typing import Any

import torch

_NAMED_DTYPES = {
    "bfloat16": torch.bfloat16,
    "float16": torch.float16,
    "float32": torch.float32,
}


class AttentionSpec:
    """Normalised view over a HuggingFace ``config.json`` for KV sizing."""

    def __init__(self, hf: Any, tp_size: int = 1, pp_rank: int = 0, pp_size: int = 1):
        self.hf = hf
        self.tp_size = tp_size
        self.num_layers_total = int(getattr(hf, "num_hidden_layers"))
        per_stage = self.num_layers_total // pp_size
        self.first_layer = pp_rank * per_stage
        self.last_layer = self.first_layer + per_stage
        kv_heads = getattr(hf, "num_key_value_heads", None) or hf.num_attention_heads
        if kv_heads % tp_size:
            raise ValueError(f"{kv_heads} KV heads not divisible by tp={tp_size}")
        self.kv_heads = kv_heads // tp_size
        self.head_dim = getattr(hf, "head_dim", None) or hf.hidden_size // hf.num_attention_heads
        self.model_dtype = _NAMED_DTYPES[getattr(hf, "torch_dtype", "bfloat16")]

    @property
    def layer_ids(self) -> range:
        return range(self.first_layer, self.last_layer)

    def kv_dtype(self, requested: str) -> torch.dtype:
        """Resolve ``--kv-cache-dtype``; ``auto`` follows the checkpoint."""
        if requested == "auto":
            return self.model_dtype
        if requested in ("fp8", "fp8_e4m3"):
            return torch.float8_e4m3fn
        return _NAMED_DTYPES[requested]
