"""Serving engines, one module each (`sglang.py`), found by walking this package.

Each module defines `register(registry)` and adds its `Engine` (base.py); nothing else lists
them. The stages ask `active()` for every registered engine's names.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil

from auditor.engines.base import Engine, HostDeclarations, Registry, SizeClaim

__all__ = ["Engine", "HostDeclarations", "SizeClaim", "active", "default_packs"]


@functools.cache
def active() -> tuple[Engine, ...]:
    """Every engine of this package, in module name order."""
    registry = Registry()
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name == "base" or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        module.register(registry)
    return tuple(registry.engines)


def default_packs() -> tuple[str, ...]:
    """The rule packs used when a project names none."""
    return tuple(e.rule_pack for e in active() if e.loaded_by_default)


def size_claims() -> tuple[SizeClaim, ...]:
    return tuple(claim for engine in active() for claim in engine.size_claims)


def host_declarations() -> tuple[HostDeclarations, ...]:
    return tuple(spec for engine in active() for spec in engine.host_declarations)


def post_build_hooks() -> tuple:
    return tuple(hook for engine in active() for hook in engine.post_build)
