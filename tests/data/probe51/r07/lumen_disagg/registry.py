"""Role -> pool class registry, filled by decorators at import time."""
from __future__ import annotations

_POOLS: dict = {}


def register(role: str):
    def deco(cls):
        _POOLS[role] = cls
        cls.role = role
        return cls
    return deco


def get_pool_cls(role: str):
    if not _POOLS:
        from . import pools  # noqa: F401  (registers the built-in pools)
    return _POOLS[role]
