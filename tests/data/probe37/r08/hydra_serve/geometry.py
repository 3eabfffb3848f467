"""Arena configuration and the geometry mixin shared by arena-like classes."""
from dataclasses import dataclass
from functools import cached_property
from typing import Optional, Tuple

from .precision import KVPrecision


@dataclass
class ArenaConfig:
    n_layers: int = 48
    q_heads: int = 48
    kv_heads: int = 8
    hidden: int = 6144
    head_dim: Optional[int] = None
    tp: int = 2
    slots: int = 65536
    mirror_slots: int = 16384
    precision: KVPrecision = KVPrecision.FP8_TOKEN

    def __post_init__(self):
        if not isinstance(self.precision, KVPrecision):
            self.precision = KVPrecision(self.precision)
        if self.head_dim is not None and self.head_dim <= 0:
            raise ValueError("head_dim must be positive")
        if self.head_dim is None and self.hidden % self.q_heads:
            raise ValueError("hidden must be divisible by q_heads")
        if self.tp <= 0 or self.kv_heads % self.tp:
            raise ValueError("kv_heads must be divisible by tp")


class GeometryMixin:
    """Per-token geometry derived from ``self.cfg``."""

    cfg: ArenaConfig

    @cached_property
    def heads_local(self) -> int:
        return self.cfg.kv_heads // self.cfg.tp

    @cached_property
    def head_width(self) -> int:
        return self.cfg.head_dim or self.cfg.hidden // self.cfg.q_heads

    @property
    def token_shape(self) -> Tuple[int, int]:
        return (self.heads_local, self.head_width)
