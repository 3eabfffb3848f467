"""KV geometry of the speculative draft model, derived from the target."""
from dataclasses import dataclass, replace
from typing import Optional

import torch


@dataclass(frozen=True)
class DraftGeometry:
    num_layers: int
    kv_heads: int
    head_dim: int
    dtype: torch.dtype

    @classmethod
    def from_target(cls, target: dict, tp_size: int = 1, draft_layers: int = 1,
                    dtype_name: Optional[str] = None) -> "DraftGeometry":
        heads = target["num_key_value_heads"]
        head_dim = target.get("head_dim") or target["hidden_size"] // target["num_attention_heads"]
        dtype = getattr(torch, dtype_name or target.get("torch_dtype", "bfloat16"))
        return cls(
            num_layers=draft_layers,
            kv_heads=max(1, heads // tp_size),
            head_dim=head_dim,
            dtype=dtype,
        )

    def with_layers(self, n: int) -> "DraftGeometry":
        return replace(self, num_layers=n)

    @property
    def token_shape(self):
        return (2, self.kv_heads, self.head_dim)  # K/V interleaved

    def bytes_per_token(self) -> int:
        return self.num_layers * 2 * self.kv_heads * self.head_dim * self.dtype.itemsize
