"""Record classes without an `__init__` of their own in the tree: `msgspec.Struct` and
`typing.NamedTuple` subclasses, whose fields are their annotated class attributes (as for
`@dataclass`). SGLang 0.5.23 declares host pool sizes in such records (`HostPoolStorageInfo`),
so where each field's value was written is remembered: that is where a finding points.
"""

from __future__ import annotations

from typing import NamedTuple

import libcst as cst

from auditor.frontend.index import ClassInfo
from auditor.interpret.memos import MEMOS
from auditor.interpret.syntax import location_of, source_of
from auditor.interpret.values import Instance

RECORD_BASES = frozenset({"msgspec.Struct", "typing.NamedTuple", "NamedTuple"})
_FIELD_TEXTS = MEMOS.field_texts  # memos.py: instance -> field -> the text written for it


def is_named_tuple(cls: ClassInfo) -> bool:
    """Does `cls` (or an in-tree base) derive from `typing.NamedTuple` (which has `_replace`;
    a `msgspec.Struct` has not)?"""
    named = ("typing.NamedTuple", "NamedTuple")
    return any(base in named for klass in cls.mro() for base in klass.external_bases)


def is_record_struct(cls: ClassInfo) -> bool:
    """Does `cls` (or an in-tree base) derive from a record base outside the tree?"""
    return any(base in RECORD_BASES for klass in cls.mro() for base in klass.external_bases)


def remember_field_sources(instance: Instance, arg_sources: dict | None) -> None:
    """Record where each keyword field's value was written (`bytes_per_token_per_layer=...`)."""
    for key, source in (arg_sources or {}).items():
        if isinstance(key, str) and key in instance.attrs:
            node, frame = source
            instance.set_sites[key] = location_of(frame.module.parsed, node)
            _FIELD_TEXTS.setdefault(instance, {})[key] = source_of(frame.module.parsed, node)


def field_text(instance: Instance, name: str) -> str:
    """The source text of a field's value, when it was passed by keyword ("" otherwise)."""
    return _FIELD_TEXTS.get(instance, {}).get(name, "")


def dataclass_fields(cls: ClassInfo) -> list[tuple[str, cst.BaseExpression | None, ClassInfo]]:
    """The annotated class attributes of `cls` and its in-tree bases, base first, each with
    its default and the class declaring it: a dataclass's or a record's fields."""
    return [(name, default, klass) for name, default, klass, _ in declared_fields(cls)]


def declared_fields(
    cls: ClassInfo,
) -> list[tuple[str, cst.BaseExpression | None, ClassInfo, cst.BaseExpression]]:
    """`dataclass_fields`, each with its annotation (`ClassVar[int]`)."""
    fields: list[tuple[str, cst.BaseExpression | None, ClassInfo, cst.BaseExpression]] = []
    for klass in reversed(cls.mro()):
        for statement in klass.node.body.body:
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                        name = small.target.value
                        fields = [f for f in fields if f[0] != name]
                        fields.append((name, small.value, klass, small.annotation.annotation))
    return fields


class FieldSpec(NamedTuple):
    """What `name: T = field(default=..., init=..., kw_only=...)` tells the constructor."""

    default: cst.BaseExpression | None  # the value given when the caller gives none
    factory: cst.BaseExpression | None  # `default_factory=`: called for each object
    init: bool  # a constructor argument (`init=False`: set only by `__post_init__`)
    kw_only: bool  # taken by keyword only (skipped by positional arguments)


def field_spec(default: cst.BaseExpression | None, klass: ClassInfo) -> FieldSpec:
    """A field's declaration: its plain default, or what its `dataclasses.field(...)` says
    (other keywords, such as `compare=` or `repr=`, do not change what is built)."""
    if not (isinstance(default, cst.Call) and _names_field(default.func, klass)):
        return FieldSpec(default, None, True, False)
    given = {a.keyword.value: a.value for a in default.args if a.keyword is not None}
    code = klass.module.parsed.code

    def flag(name: str, otherwise: bool) -> bool:
        value = given.get(name)
        return otherwise if value is None else code(value).strip() == "True"

    return FieldSpec(
        given.get("default"),
        given.get("default_factory"),
        flag("init", True),
        flag("kw_only", False),
    )


def _names_field(func: cst.BaseExpression, klass: ClassInfo) -> bool:
    """Is `func` `field` or `dataclasses.field`, as the class's module imports it?"""
    imports = klass.module.imports
    if isinstance(func, cst.Name):
        return imports.get(func.value) == ("dataclasses", "field")
    return (
        isinstance(func, cst.Attribute)
        and isinstance(func.value, cst.Name)
        and func.attr.value == "field"
        and imports.get(func.value.value) == ("dataclasses", None)
    )


def is_class_var(annotation: cst.BaseExpression, klass: ClassInfo) -> bool:
    """A `ClassVar[...]` annotation: a class attribute, not a field."""
    return "ClassVar" in klass.module.parsed.code(annotation)


def is_dataclass_of_tree(cls: ClassInfo) -> bool:
    return any(k.node.decorators and _is_dataclass(k) for k in cls.mro())


def _is_dataclass(cls: ClassInfo) -> bool:
    return cls.node.decorators and any(
        "dataclass" in cls.module.parsed.code(d.decorator) for d in cls.node.decorators
    )
