"""KV cache dtype handling."""
import enum
import os
from typing import Union

import torch

CACHE_DTYPE_ENV = "SWAPKV_CACHE_DTYPE"


class CacheDType(str, enum.Enum):
    AUTO = "auto"
    HALF = "half"
    BFLOAT16 = "bfloat16"
    FLOAT = "float"
    FP8 = "fp8"
    FP8_E5M2 = "fp8_e5m2"


# fp8 variants are stored as raw bytes and reinterpreted by the kernels.
STR_DTYPE_TO_TORCH_DTYPE = {
    CacheDType.HALF: torch.half,
    CacheDType.BFLOAT16: torch.bfloat16,
    CacheDType.FLOAT: torch.float,
    CacheDType.FP8: torch.uint8,
    CacheDType.FP8_E5M2: torch.uint8,
}


def cache_dtype_from_env() -> CacheDType:
    return CacheDType(os.environ.get(CACHE_DTYPE_ENV, CacheDType.AUTO.value))


def get_kv_cache_torch_dtype(cache_dtype: Union[str, CacheDType], model_dtype: torch.dtype) -> torch.dtype:
    cache_dtype = CacheDType(cache_dtype)
    if cache_dtype is CacheDType.AUTO:
        return model_dtype
    return STR_DTYPE_TO_TORCH_DTYPE[cache_dtype]
