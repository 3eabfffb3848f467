"""Enum classes of the audited tree: members are objects with a name and a value.

`KVLayout.V4` is one object per evaluation, so `is`, `in (...)` and dict lookup tables keyed by
members (`{KVLayout.V4: 576, ...}[self]`) behave as in Python; `KVLayout("v4")` finds a member
by value. A member of a `str` or `int` enum equals its value, as in Python.
"""

from __future__ import annotations

from typing import Any

import libcst as cst

from auditor.frontend.index import ClassInfo
from auditor.interpret.control import Infeasible
from auditor.interpret.values import Instance, RuntimeObject, Unknown, is_unknown

_ENUM_BASES = ("Enum", "IntEnum", "StrEnum", "Flag", "IntFlag")
_MIXINS = ("builtins.str", "builtins.int", "str", "int", "IntEnum", "StrEnum", "IntFlag")


def is_enum(cls: ClassInfo) -> bool:
    return any(
        base.rsplit(".", 1)[-1] in _ENUM_BASES
        for klass in cls.mro()
        for base in klass.external_bases
    )


def _is_mixin(cls: ClassInfo) -> bool:
    return any(
        base in _MIXINS or base.rsplit(".", 1)[-1] in _MIXINS
        for klass in cls.mro()
        for base in klass.external_bases
    )


def member_names(cls: ClassInfo) -> list[str]:
    """Names bound by plain assignments in the enum's own body, in order (its members)."""
    names = []
    for statement in cls.node.body.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.Assign):
                    for target in small.targets:
                        if isinstance(target.target, cst.Name) and is_member_name(
                            target.target.value
                        ):
                            names.append(target.target.value)
    return names


def is_member_name(name: str) -> bool:
    return not (name.startswith("_") and name.endswith("_")) and not name.startswith("__")


def make_member(cls: ClassInfo, name: str, value: Any) -> Instance:
    return Instance(cls, attrs={"name": name, "value": value, "_name_": name, "_value_": value})


def is_member(value: Any) -> bool:
    return isinstance(value, Instance) and "_value_" in value.attrs and is_enum(value.cls)


def mixin_value(value: Any) -> Any:
    """The value a `str`/`int` enum member compares as; anything else unchanged."""
    if is_member(value) and _is_mixin(value.cls):
        return value.attrs["_value_"]
    return value


def lookup(interpreter, cls: ClassInfo, args: list, location) -> Any:
    """`Color(value)`: the member with that value (or the member itself)."""
    if len(args) != 1:
        return Unknown(f"{cls.name}() with {len(args)} arguments is not modelled", location)
    wanted = args[0]
    if is_unknown(wanted):
        return wanted
    if is_member(wanted) and wanted.cls is cls:
        return wanted
    if isinstance(wanted, RuntimeObject) and wanted.loose:  # a value after all (a parameter
        # nothing gives, `KVFormat(kv_format)`): sampled next round, its members' values then
        # demanded (below), as for a loose value in arithmetic (operators.py)
        interpreter.point.pending.add(wanted.path)
        return Unknown(f"{cls.name}({wanted.path}): {wanted.path} has no value yet", location)
    values = []
    for name in member_names(cls):
        member = interpreter.class_attribute(cls, name, location, receiver=None)
        if not is_member(member):
            continue
        value = member.attrs["_value_"]
        if is_unknown(value):
            text = f"value of {cls.name}.{name} is unresolved: {value.reason}"
            return Unknown(text, location, cause=value)
        if type(value) is type(wanted) and value == wanted:
            return member
        values.append(value)
    for value in values:  # the values the code accepts here, as `x in (...)` says them
        interpreter.point.compared_with_literal(wanted, value)
    # as Python does (`ValueError`): decided by the value, so the point is refused
    raise Infeasible(f"{wanted!r} is not a value of {cls.name} (ValueError)", location)
