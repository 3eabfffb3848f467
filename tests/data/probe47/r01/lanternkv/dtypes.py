"""String to torch dtype resolution for KV cache storage."""
from __future__ import annotations

import torch

_KV_DTYPES: dict[str, torch.dtype | None] = {
    "auto": None,
    "bf16": torch.bfloat16,
    "bfloat16": torch.bfloat16,
    "fp16": torch.float16,
    "float16": torch.float16,
    "half": torch.float16,
    "fp8": torch.float8_e4m3fn,
    "fp8_e4m3": torch.float8_e4m3fn,
    "fp8_e5m2": torch.float8_e5m2,
}


def resolve_kv_dtype(kv_cache_dtype: str, model_dtype: str) -> torch.dtype:
    """Return the storage dtype for the cache; "auto" follows the model."""
    try:
        chosen = _KV_DTYPES[kv_cache_dtype]
    except KeyError as exc:
        raise ValueError(f"unsupported kv_cache_dtype {kv_cache_dtype!r}") from exc
    if chosen is None:
        chosen = _KV_DTYPES[model_dtype]
    return chosen


def itemsize(dtype: torch.dtype) -> int:
    return torch.empty((), dtype=dtype, device="meta").element_size()
