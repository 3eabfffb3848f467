"""Registry of cache storage variants (fp16 or grouped-quantised rows)."""
from dataclasses import dataclass
from typing import Dict, Optional

import torch

_VARIANTS: Dict[str, "CacheVariant"] = {}


@dataclass(frozen=True)
class CacheVariant:
    name: str
    bits: int
    group_size: Optional[int]   # None: unquantised

    @property
    def quantized(self) -> bool:
        return self.group_size is not None

    def state_shape(self, batch: int, seq: int, kv_heads: int, head_dim: int):
        width = kv_heads * head_dim
        if not self.quantized:
            return (batch, seq, width), torch.float16
        return (batch, seq, width * self.bits // 8), torch.uint8

    def scale_shape(self, batch: int, seq: int, kv_heads: int, head_dim: int):
        return (batch, seq, kv_heads * head_dim // self.group_size), torch.float16


def register_variant(name: str, bits: int, group_size: Optional[int] = None):
    _VARIANTS[name] = CacheVariant(name, bits, group_size)


def get_variant(name: str) -> CacheVariant:
    return _VARIANTS[name]


register_variant("fp16", 16)
register_variant("q8", 8, 32)
register_variant("q6", 6, 32)
register_variant("q4", 4, 32)
