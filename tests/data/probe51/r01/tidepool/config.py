"""Read-only views over a Hugging Face config dict plus the serving flags we need."""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any


def _to_ns(obj: Any) -> Any:
    if isinstance(obj, dict):
        return SimpleNamespace(**{k: _to_ns(v) for k, v in obj.items()})
    return obj


class ModelView:
    """Multimodal checkpoints nest the language model under ``text_config``."""

    def __init__(self, hf_config: dict, tp_size: int = 1):
        self.raw = _to_ns(hf_config)
        self.tp_size = tp_size

    @property
    def text(self):
        return getattr(self.raw, "text_config", self.raw)

    @property
    def model_dtype_name(self) -> str:
        return getattr(self.text, "torch_dtype", None) or self.raw.torch_dtype

    @property
    def num_layers(self) -> int:
        return self.text.num_hidden_layers

    @property
    def kv_heads_per_rank(self) -> int:
        return max(1, self.text.num_key_value_heads // self.tp_size)

    @property
    def head_dim(self) -> int:
        explicit = getattr(self.text, "head_dim", None)
        if explicit:
            return explicit
        return self.text.hidden_size // self.text.num_attention_heads

    @property
    def window(self) -> int:
        return self.text.sliding_window

    def layer_kinds(self) -> list[str]:
        """Every ``sliding_window_pattern``-th layer attends globally."""
        period = getattr(self.text, "sliding_window_pattern", 6)
        return [
            "global" if (idx + 1) % period == 0 else "local"
            for idx in range(self.num_layers)
        ]
