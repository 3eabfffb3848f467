"""Real torch dtypes, imported once and only when a pool needs one; never a hand-written table."""

from __future__ import annotations

import functools
import re
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


# Names torch gives dtypes (`float8_e4m3fn`, `float4_e2m1fn_x2`, `uint4`, `bits8`, `qint8`...):
# `torch.<such a name>` that the installed torch lacks is a dtype of a newer torch, not an
# unknown library attribute, and is reported as such.
_DTYPE_SHAPED = re.compile(r"(?:b?float|u?int|complex|bits|qu?int)\d+\w*")


def looks_like_dtype_name(name: str) -> bool:
    return _DTYPE_SHAPED.fullmatch(name.removeprefix("torch.")) is not None


def torch_version() -> str:
    """The installed torch's version, as in messages: `2.13.0+cpu`."""
    return str(getattr(torch_module(), "__version__", "?"))


def missing_dtype_reason(name: str) -> str:
    """Why `torch.<name>` has no size here: the installed torch predates that dtype."""
    short = name.removeprefix("torch.")
    return f"torch.{short}: no such dtype in the installed torch {torch_version()} (a newer torch has it)"


def dtype_name(dtype: Any) -> str:
    """torch.bfloat16 -> "bfloat16"."""
    return str(dtype).removeprefix("torch.")


def itemsize(dtype: Any) -> int:
    return int(dtype.itemsize)
