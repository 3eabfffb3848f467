"""Engine settings for a speculative-decoding deployment."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(kw_only=True)
class SpecSettings:
    algorithm: str = "eagle"
    num_steps: int = 3
    topk: int = 1
    num_draft_tokens: int = 4


@dataclass(kw_only=True)
class EngineSettings:
    tp_size: int = 1
    kv_dtype: str = "auto"
    max_tokens: int
    device: str = "cuda"
    spec: SpecSettings = field(default_factory=SpecSettings)
    extra: dict[str, Any] = field(default_factory=dict)
