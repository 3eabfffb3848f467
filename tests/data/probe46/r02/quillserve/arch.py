"""Architecture facts pulled out of a DeepSeek-style config."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping


@dataclass(frozen=True)
class MLAArch:
    """Only the fields the KV cache cares about."""

    num_layers: int
    kv_lora_rank: int
    qk_rope_head_dim: int
    num_nextn_layers: int = 0

    @classmethod
    def from_hf(cls, hf: Mapping[str, Any]) -> "MLAArch":
        return cls(
            num_layers=hf["num_hidden_layers"],
            kv_lora_rank=hf.get("kv_lora_rank", 512),
            qk_rope_head_dim=hf.get("qk_rope_head_dim", 64),
            num_nextn_layers=hf.get("num_nextn_predict_layers", 0),
        )
