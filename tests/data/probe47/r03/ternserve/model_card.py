"""Read-only view over a DeepSeek-style config dict."""
from __future__ import annotations

from typing import Any, Mapping


class DeepseekCard:
    """Exposes the MLA dimensions the cache needs as properties."""

    def __init__(self, raw: Mapping[str, Any]):
        self._raw = dict(raw)

    def __getitem__(self, key: str) -> Any:
        return self._raw[key]

    @property
    def kv_lora_rank(self) -> int:
        return int(self._raw["kv_lora_rank"])

    @property
    def qk_rope_head_dim(self) -> int:
        return int(self._raw["qk_rope_head_dim"])

    @property
    def latent_dim(self) -> int:
        return self.kv_lora_rank + self.qk_rope_head_dim

    @property
    def num_hidden_layers(self) -> int:
        return int(self._raw["num_hidden_layers"])

    @property
    def model_dtype(self) -> str:
        return self._raw.get("torch_dtype", "bfloat16")
