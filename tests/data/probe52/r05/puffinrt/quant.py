"""FP4 KV schemes: packed e2m1 pairs plus one block scale per group."""
from dataclasses import dataclass

import torch

VALUES_PER_BYTE = 2

_SCHEMES = {
    # name: (elements per scale, scale dtype)
    "mxfp4": (32, torch.float8_e8m0fnu),
    "nvfp4": (16, torch.float8_e4m3fn),
}


@dataclass(frozen=True)
class Fp4Scheme:
    name: str
    group: int
    scale_dtype: torch.dtype

    @classmethod
    def named(cls, name: str) -> "Fp4Scheme":
        group, scale_dtype = _SCHEMES[name]
        return cls(name, group, scale_dtype)

    def data_bytes(self, elems: int) -> int:
        return elems // VALUES_PER_BYTE

    def scale_count(self, elems: int) -> int:
        assert elems % self.group == 0
        return elems // self.group
