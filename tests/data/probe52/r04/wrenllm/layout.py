"""Per-rank KV layout derived from a HF config.json dict."""
from dataclasses import dataclass
from typing import Optional

import torch

_ELEMENT = {
    "fp8": torch.float8_e4m3fn,
    "fp8_e4m3": torch.float8_e4m3fn,
    "fp8_e5m2": torch.float8_e5m2,
}


@dataclass(frozen=True)
class RankKVLayout:
    layers: int
    heads_per_rank: int
    head_dim: int
    element: torch.dtype
    scale: Optional[torch.dtype] = None

    @property
    def token_shape(self):
        return (self.heads_per_rank, self.head_dim)


def rank_layout(hf: dict, tp: int, kv_cache_dtype: str = "auto") -> RankKVLayout:
    if (kv_heads := hf.get("num_key_value_heads")) is None:
        kv_heads = hf["num_attention_heads"]
    if (head_dim := hf.get("head_dim")) is None:
        head_dim = hf["hidden_size"] // hf["num_attention_heads"]
    # fewer KV heads than ranks: each rank keeps one replicated head
    heads = kv_heads // tp if kv_heads >= tp else 1
    if (element := _ELEMENT.get(kv_cache_dtype)) is not None:
        return RankKVLayout(hf["num_hidden_layers"], heads, head_dim, element, torch.float32)
    model = getattr(torch, hf.get("torch_dtype", "bfloat16"))
    return RankKVLayout(hf["num_hidden_layers"], heads, head_dim, model)
