"""Serving engines, one module each (`sglang.py`), found by walking this package.

Each engine module defines `register(registry)` and adds its `Engine` (base.py); nothing else
lists them. A module named after an engine and a part (`vllm_run.py`) is a part of that engine:
it is not imported to register anything, so registering (every run, from the settings) loads
only the engines' own modules, which import their parts when a stage first runs. The stages
ask `active()` for every registered engine's names.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil

from auditor.engines.base import (
    Engine,
    HostDeclarations,
    Registry,
    SizeClaim,
    StageInput,
    StageOutcome,
)

__all__ = [
    "Engine",
    "HostDeclarations",
    "SizeClaim",
    "StageInput",
    "StageOutcome",
    "active",
    "default_packs",
]


@functools.cache
def active() -> tuple[Engine, ...]:
    """Every engine of this package, in module name order."""
    registry = Registry()
    names = sorted(info.name for info in pkgutil.iter_modules(__path__))
    for name in names:
        part_of = name.split("_", 1)[0] if "_" in name else None
        if name == "base" or name.startswith("_") or part_of in names:
            continue  # (`vllm_run` is a part of `vllm`)
        module = importlib.import_module(f"{__name__}.{name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(registry)
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


def tables() -> tuple[str, ...]:
    """The pack tables engines read themselves (kept raw by the settings)."""
    return tuple(e.table for e in active() if e.table is not None)


def with_stages() -> tuple[Engine, ...]:
    return tuple(e for e in active() if e.stage is not None)
