"""Real torch dtypes, imported once and only when a pool needs one; never a hand-written table."""

from __future__ import annotations

import functools
import warnings
from typing import Any


@functools.cache
def torch_module() -> Any:
    """Import torch once, quietly (a CPU build without numpy warns on import)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import torch
    return torch


def is_dtype(value: object) -> bool:
    return type(value).__name__ == "dtype" and type(value).__module__ == "torch"


def dtype_by_name(name: str) -> Any | None:
    """`"bfloat16"` or `"torch.bfloat16"` -> torch.bfloat16; None if torch has no such dtype."""
    short = name.removeprefix("torch.")
    value = getattr(torch_module(), short, None)
    return value if is_dtype(value) else None


def dtype_name(dtype: Any) -> str:
    """torch.bfloat16 -> "bfloat16"."""
    return str(dtype).removeprefix("torch.")


def itemsize(dtype: Any) -> int:
    return int(dtype.itemsize)
