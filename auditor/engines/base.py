"""What a serving engine contributes to an audit: the names its code gives to what the auditor
looks for, and its rule pack.

The stages are engine-neutral: pools are recognised by constructor parameter names, buffers are
measured from tensors, pairs are found from the code's own calls. What differs between engines
is vocabulary (a host's own size-per-token figure, device pools declaring their hosts as data,
buffers kept on helper objects) and config values (the rule pack). An engine module states them
once, as data; the stages read them through `auditor.engines.active()`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from auditor.interpret.machine import Interpreter
    from auditor.interpret.values import Instance


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


class Registry:
    """Where engine modules register (`register(registry)`, as astroid's brain modules do)."""

    def __init__(self) -> None:
        self.engines: list[Engine] = []

    def add(self, engine: Engine) -> None:
        if any(known.name == engine.name for known in self.engines):
            raise ValueError(f"engine {engine.name!r} registered twice")
        self.engines.append(engine)
