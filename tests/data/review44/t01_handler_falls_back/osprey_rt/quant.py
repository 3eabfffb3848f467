"""Block-scaled KV formats: element storage plus one scale per block of values."""
from __future__ import annotations

import torch


class Fp8Format:
    name = "fp8_e4m3"
    data_dtype = torch.float8_e4m3fn
    values_per_byte = 1
    block = 128
    scale_dtype = torch.float32


class Fp4Format:
    name = "nvfp4"
    data_dtype = torch.float4_e2m1fn_x2   # two e2m1 values per byte
    values_per_byte = 2
    block = 16
    scale_dtype = torch.float8_e4m3fn


FORMATS = {cls.name: cls for cls in (Fp8Format, Fp4Format)}


def lookup(kv_cache_dtype: str):
    try:
        return FORMATS[kv_cache_dtype]
    except KeyError:
        return Fp8Format
