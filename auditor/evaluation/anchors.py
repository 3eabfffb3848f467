"""Hosts built on another host of their tier: a stand-in for the anchor the code passes.

Some hosts take the tier's KV host and copy its capacity (SGLang 0.5.23's index-K and MiniMax
NVFP4 sidecars: `self.size = anchor_host.size`, `self.page_num = anchor_host.page_num`). The
anchor is often a variable of the assembler built from pools the callers pass, which the audit
does not follow; without it every buffer of the host is unresolved and the pair never compared.
The rule pack's `[anchor-host]` names such parameters and the attributes of a stand-in: a host
holding the build's tokens (`tokens`, so that the host's bytes follow the token count as its
real anchor's would) in pages of the config's page size. The stand-in is used only where the
code's own value is unknown, and the comparison says it assumed one.
"""

from __future__ import annotations

import functools
from typing import Any

import libcst as cst

from auditor.evaluation.matrix import parameter_names
from auditor.frontend.index import ClassInfo, ModuleInfo
from auditor.interpret.library import Record
from auditor.interpret.machine import Interpreter
from auditor.interpret.scopes import Frame
from auditor.interpret.values import ConfigDependency, Instance, Unknown, is_unknown
from auditor.location import Location
from auditor.settings import Settings

KIND = "anchor host"


def stand_in_anchors(
    host: ClassInfo,
    kwargs: dict,
    settings: Settings,
    interpreter: Interpreter,
    values: dict,
    module: ModuleInfo,
    location: Location,
) -> list[str]:
    """Put a stand-in in `kwargs` for each anchor parameter of `host` whose value is unknown;
    what was assumed, one text per parameter (for `PointResult.assumed`)."""
    notes = []
    names = parameter_names(host)
    for name in settings.anchor_params:
        why = _unknown_anchor(kwargs.get(name), settings) if name in names else None
        if why is None:
            continue
        kwargs[name] = stand_in(settings, interpreter, values, module, location)
        notes.append(
            f"{host.name}({name}=...): a stand-in {KIND} of the build's tokens "
            f"(the code's value is not known: {' '.join(why.reason.split())[:160]})"
        )
    return notes


def _unknown_anchor(value: Any, settings: Settings) -> Unknown | None:
    """Why the code's anchor is not known: the value itself, or a host built from what is not
    known (an assembler's KV host over the callers' pool: its capacity unknown); else None."""
    if is_unknown(value):
        return value
    if isinstance(value, Instance):
        for attribute in settings.anchor_attributes:
            found = value.attrs.get(attribute)
            if is_unknown(found):
                return found
    return None


def stand_in(
    settings: Settings, interpreter: Interpreter, values: dict, module: ModuleInfo, location
) -> Record:
    """The anchor: each attribute evaluated from config values and the build's token count."""
    tokens = next((n for n in settings.token_params if n in values), None)
    frame_locals: dict = {}
    fields = {}
    for attribute, text in settings.anchor_attributes.items():
        node, names = _parsed(text)
        for name in names:
            if name == "tokens":
                frame_locals[name] = (
                    ConfigDependency(tokens)
                    if tokens is not None
                    else Unknown("no token count at this build", location)
                )
            elif name in values:
                frame_locals[name] = ConfigDependency(name)
            else:
                frame_locals[name] = Unknown(
                    f"{KIND} attribute {attribute}: {name} has no config value", location
                )
        fields[attribute] = interpreter.eval(node, Frame(module, dict(frame_locals)))
    return Record(KIND, fields)


@functools.lru_cache(maxsize=64)
def _parsed(text: str) -> tuple[cst.BaseExpression, frozenset[str]]:
    """An attribute's expression and the names it reads: parsed once, not at every build."""
    node = cst.parse_expression(text)
    found: set[str] = set()

    class Names(cst.CSTVisitor):
        def visit_Name(self, name: cst.Name) -> None:
            found.add(name.value)

    node.visit(Names())
    return node, frozenset(found)
