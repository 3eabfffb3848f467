"""What a serving engine contributes to an audit: the names its code gives to what the auditor
looks for, and its rule pack.

The stages are engine-neutral: pools are recognised by constructor parameter names, buffers are
measured from tensors, pairs are found from the code's own calls. What differs between engines
is vocabulary (a host's own size-per-token figure, device pools declaring their hosts as data,
buffers kept on helper objects) and config values (the rule pack). An engine module states them
once, as data; the stages read them through `auditor.engines.active()`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from auditor.frontend.index import ProjectIndex
    from auditor.frontend.parse import ParsedModule
    from auditor.interpret.machine import Interpreter
    from auditor.interpret.values import Instance, Unknown
    from auditor.limits import Limits


def _rules_dir() -> Path:
    """`rules/` beside the package in a checkout; `share/layout-audit/rules` when installed."""
    source_tree = Path(__file__).resolve().parent.parent.parent / "rules"
    if source_tree.is_dir():
        return source_tree
    return Path(sys.prefix) / "share" / "layout-audit" / "rules"


RULES_DIR = _rules_dir()  # the bundled rule packs (re-exported by auditor.settings)


class ConfigError(Exception):
    """A configuration or rule-pack problem; its message names the file and the key.

    Defined here so that an engine reading its own pack table can raise it; auditor.settings
    re-exports it."""


@dataclass(frozen=True)
class SizeClaim:
    """A host pool's own figure of its bytes per token, set on the built host (`attribute`),
    usually by a method (`method`, where the figure is written). LA002 compares it with the
    device buffers the host mirrors."""

    attribute: str
    method: str | None = None


@dataclass(frozen=True)
class HostDeclarations:
    """Device pools that declare their host mirrors as data: `method()` on a built device pool
    returns records naming the device pool (`device_field`), the host layout (`storage_field`,
    a record with `size_field` bytes per token per layer and `dtype_field`; absent on a record
    the engine builds another way), and a builder (`builder_field`) whose `builder_method`
    constructs the host class."""

    method: str
    device_field: str
    storage_field: str
    builder_field: str
    builder_method: str
    size_field: str
    dtype_field: str


# Run on every pool once it is built, before it is measured: (interpreter, pool, is_buffer_name).
PostBuild = Callable[["Interpreter", "Instance", Callable[[str], bool]], Any]


@dataclass
class StageInput:
    """What an engine's own stage reads: the files read (bytes by display path), the modules,
    the index, the settings (typed loosely: settings sit above engines), the limits, and the
    engine's pack table (`Engine.table`, merged over the packs; empty when none names it)."""

    data: dict[str, bytes]
    parsed: list[ParsedModule]
    index: ProjectIndex
    settings: Any
    limits: Limits
    table: dict[str, Any]


@dataclass
class StageOutcome:
    """What an engine's own stage found: rows for `--show-pools` (objects with `title`, `label`,
    `text`), a part of the summary line, unresolved items (subject, Unknown). The engine's
    checks (`Scope.ENGINES`) read the outcome from `CheckContext.stage_outcomes`. A result
    with an outcome is not stored whole: nothing records which files the stage looked at."""

    engine: str
    rows: list[Any] = field(default_factory=list)
    summary: str = ""
    unresolved: list[tuple[str, Unknown]] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)  # the summary's figures, for JSON


# An engine's own stage, after the pools are evaluated: None when the tree has nothing of it.
Stage = Callable[[StageInput], "StageOutcome | None"]


@dataclass(frozen=True)
class Engine:
    """One engine's contribution. Every field but `name` and `rule_pack` is optional: an engine
    whose pools are plain classes taking a device pool needs only its rule pack."""

    name: str
    rule_pack: str  # a bundled pack (rules/<rule_pack>.toml): parameter names, config matrix
    loaded_by_default: bool = False  # the pack is used when a project names none
    size_claims: tuple[SizeClaim, ...] = ()
    host_declarations: tuple[HostDeclarations, ...] = ()
    post_build: tuple[PostBuild, ...] = ()
    table: str | None = None  # a table of its own in rule packs, kept raw for `stage`
    stage: Stage | None = None  # a stage of its own (a model beside the pools)
    # from a file's bytes alone: may the stage have work in it (a run where no file may hold a
    # pool and none concerns a stage is answered without loading the interpreter)
    stage_files: Callable[[bytes], bool] | None = None


class Registry:
    """Where engine modules register (`register(registry)`, as astroid's brain modules do)."""

    def __init__(self) -> None:
        self.engines: list[Engine] = []

    def add(self, engine: Engine) -> None:
        if any(known.name == engine.name for known in self.engines):
            raise ValueError(f"engine {engine.name!r} registered twice")
        self.engines.append(engine)
