"""KV storage formats, registered by subclassing."""
from __future__ import annotations

from typing import ClassVar

import torch


class CacheFormat:
    """Base class; each subclass declares its flag name and storage dtype."""

    registry: ClassVar[dict[str, type["CacheFormat"]]] = {}
    key: ClassVar[str]
    storage: ClassVar[torch.dtype]

    def __init_subclass__(cls, *, key: str, storage: torch.dtype, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        cls.key = key
        cls.storage = storage
        CacheFormat.registry[key] = cls

    @classmethod
    def lookup(cls, key: str) -> type["CacheFormat"]:
        try:
            return cls.registry[key]
        except KeyError:
            raise ValueError(f"unknown kv format {key!r}; have {sorted(cls.registry)}") from None


class BF16Format(CacheFormat, key="bf16", storage=torch.bfloat16):
    pass


class FP16Format(CacheFormat, key="fp16", storage=torch.float16):
    pass


class FP8Format(CacheFormat, key="fp8", storage=torch.float8_e4m3fn):
    pass
