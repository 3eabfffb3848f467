"""Mapping of user-facing dtype strings to torch dtypes."""
from __future__ import annotations

import torch

_DTYPES: dict[str, torch.dtype] = {
    "bf16": torch.bfloat16,
    "bfloat16": torch.bfloat16,
    "fp16": torch.float16,
    "float16": torch.float16,
    "half": torch.float16,
    "fp8": torch.float8_e4m3fn,
    "fp8_e4m3": torch.float8_e4m3fn,
    "fp8_e5m2": torch.float8_e5m2,
}


def resolve(name: str, model_dtype: str) -> torch.dtype:
    """``auto`` means: use the checkpoint dtype."""
    key = model_dtype if name == "auto" else name
    try:
        return _DTYPES[key.lower()]
    except KeyError as exc:
        raise ValueError(f"unsupported KV dtype {name!r}") from exc
