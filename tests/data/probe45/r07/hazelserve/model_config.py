from dataclasses import dataclass, field
from typing import List

import torch

DTYPE_FROM_STR = {"bfloat16": torch.bfloat16, "float16": torch.float16, "float32": torch.float32}


@dataclass
class HybridModelConfig:
    num_hidden_layers: int
    num_key_value_heads: int
    head_dim: int
    layer_types: List[str] = field(default_factory=list)
    torch_dtype: str = "bfloat16"

    @classmethod
    def from_hf(cls, hf: dict) -> "HybridModelConfig":
        n = hf["num_hidden_layers"]
        layer_types = hf.get("layer_types")
        if layer_types is None:
            interval = hf.get("full_attention_interval", 1)
            layer_types = [
                "full_attention" if (i + 1) % interval == 0 else "linear_attention"
                for i in range(n)
            ]
        return cls(
            num_hidden_layers=n,
            num_key_value_heads=hf["num_key_value_heads"],
            head_dim=hf.get("head_dim", hf["hidden_size"] // hf["num_attention_heads"]),
            layer_types=list(layer_types),
            torch_dtype=hf.get("torch_dtype", "bfloat16"),
        )

    @property
    def attention_layer_ids(self) -> List[int]:
        return [i for i, t in enumerate(self.layer_types) if t == "full_attention"]

    @property
    def dtype(self) -> torch.dtype:
        return DTYPE_FROM_STR[self.torch_dtype]
