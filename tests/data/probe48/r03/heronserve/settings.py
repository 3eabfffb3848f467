"""Cache settings. Plain class so it can be filled from argparse or env vars."""
from __future__ import annotations

from typing import Optional

import torch


class CacheSettings:
    """Knobs for the paged KV cache.

    Class attributes are the defaults; anything passed to ``__init__`` overrides
    them on the instance.
    """

    page_size: int = 16
    host_page_size: int = 128
    gpu_tokens: int = 262_144
    host_tokens: int = 1_048_576
    tp_size: int = 1
    kv_dtype: Optional[torch.dtype] = None  # None -> model dtype

    def __init__(self, **overrides) -> None:
        for key, value in overrides.items():
            if not hasattr(type(self), key):
                raise TypeError(f"unknown cache setting {key!r}")
            self.__dict__[key] = value

    def pages_for(self, tokens: int, page_size: int) -> int:
        pages, rem = divmod(tokens, page_size)
        return pages + (1 if rem else 0)
