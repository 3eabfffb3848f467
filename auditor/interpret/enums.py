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
from auditor.interpret.values import ClassRef, Instance, RuntimeObject, Unknown, is_unknown

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


def initialise(interpreter, member: Instance, location) -> None:
    """An enum whose class defines `__init__` (`BF16 = ("bf16", torch.bfloat16, 0)` with
    `def __init__(self, tag, dtype, tile): self.tag = tag`): Python calls it on each member
    with the member's value, a tuple unpacked; what it sets is the member's."""
    init = member.cls.find_method("__init__")
    if init is None or _own_new(member.cls):  # (its `__new__` decides what `__init__` gets)
        return
    owner = next(k for k in member.cls.mro() if k.methods.get(init.name) is init)
    value = member.attrs["_value_"]
    args = list(value) if type(value) is tuple else [value]
    result = interpreter.call_function(init, member, args, {}, location, owner)
    if is_unknown(result) and member.incomplete is None:
        member.incomplete = result


def is_member(value: Any) -> bool:
    return isinstance(value, Instance) and "_value_" in value.attrs and is_enum(value.cls)


def mixin_value(value: Any) -> Any:
    """The value a `str`/`int` enum member compares as; anything else unchanged."""
    if is_member(value) and _is_mixin(value.cls):
        return value.attrs["_value_"]
    return value


def _flag(cls: ClassInfo) -> bool:
    return any(
        base.rsplit(".", 1)[-1] in ("Flag", "IntFlag")
        for klass in cls.mro()
        for base in klass.external_bases
    )


def _own_new(cls: ClassInfo) -> bool:
    """Does the enum (or a base of the tree) make its members itself (`__new__` setting
    `_value_`)? Then which value each member has is not the one assigned."""
    return any("__new__" in klass.methods for klass in cls.mro())


def iterated(interpreter, value: Any, location) -> Any:
    """What iterating a value yields where it is an enum class (`for member in cls:`): its
    members in order, aliases left out, as Python gives them; any other value as it is. Not
    a Flag (Python yields its single bits, not the members that combine them) nor an enum
    making its members with its own `__new__` (their values are not the ones assigned)."""
    if type(value) is not ClassRef or not is_enum(value.cls):
        return value
    if _flag(value.cls) or _own_new(value.cls):
        kind = "a Flag enum" if _flag(value.cls) else "an enum with its own __new__"
        return Unknown(f"iterating {kind} ({value.cls.name}) is not modelled", location)
    members: list = []
    for name in member_names(value.cls):
        member = interpreter.class_attribute(value.cls, name, location, receiver=None)
        if is_unknown(member):
            return member
        if not is_member(member):
            continue
        own = member.attrs["_value_"]
        if is_unknown(own):  # (which members are aliases is not known)
            return Unknown(f"value of {value.cls.name}.{name} is unresolved", location, cause=own)
        if all(seen.attrs["_value_"] != own for seen in members):  # an alias: not iterated
            members.append(member)
    return members


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
    raise Infeasible(
        f"{wanted!r} is not a value of {cls.name} (ValueError)", location, raised="ValueError"
    )
