"""Attention geometry of the supported checkpoints and instance configuration."""
from dataclasses import dataclass
from enum import Enum
from typing import Dict

import torch

ATTENTION_SPECS: Dict[str, Dict[str, int]] = {
    "llama-3-70b": dict(layers=80, q_heads=64, kv_heads=8, head_dim=128),
    "llama-3-8b": dict(layers=32, q_heads=32, kv_heads=8, head_dim=128),
    "qwen2-72b": dict(layers=80, q_heads=64, kv_heads=8, head_dim=128),
    "mixtral-8x7b": dict(layers=32, q_heads=32, kv_heads=8, head_dim=128),
}


class Role(Enum):
    PREFILL = "prefill"
    DECODE = "decode"


@dataclass
class InstanceConfig:
    model: str = "llama-3-70b"
    role: Role = Role.PREFILL
    tp_size: int = 4
    tp_rank: int = 0
    kv_dtype: torch.dtype = torch.bfloat16
    max_kv_tokens: int = 32768

    def __post_init__(self):
        if self.model not in ATTENTION_SPECS:
            raise ValueError(f"unknown model {self.model}")
        if ATTENTION_SPECS[self.model]["kv_heads"] % self.tp_size:
            raise ValueError("kv heads must split evenly over tp")

    def spec(self) -> Dict[str, int]:
        return ATTENTION_SPECS[self.model]
