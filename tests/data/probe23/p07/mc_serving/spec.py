"""Shared description of this rank's KV geometry, read from the launcher's
environment (the k8s operator injects these)."""
import os
from dataclasses import dataclass

FP8_SCALE_GROUP = 128   # one fp32 scale per 128 fp8 values
FP32_BYTES = 4


def _env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


@dataclass(frozen=True)
class KVSpec:
    model: str
    num_layers: int
    num_kv_heads: int       # per tensor-parallel rank
    head_dim: int
    page_size: int

    @property
    def head_bytes(self) -> int:
        """fp8 payload followed by its per-group fp32 scales."""
        return self.head_dim + self.head_dim // FP8_SCALE_GROUP * FP32_BYTES

    @classmethod
    def from_env(cls) -> "KVSpec":
        total_kv_heads = _env_int("MC_KV_HEADS", 8)
        tp = _env_int("MC_TP", 4)
        return cls(model=os.environ.get("MC_MODEL", "Qwen/Qwen2-72B-Instruct"),
                   num_layers=_env_int("MC_MODEL_LAYERS", 80),
                   num_kv_heads=max(1, total_kv_heads // tp),
                   head_dim=_env_int("MC_HEAD_DIM", 128),
                   page_size=_env_int("MC_PAGE_SIZE", 32))
