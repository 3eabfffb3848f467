"""Record classes without an `__init__` of their own in the tree: `msgspec.Struct` and
`typing.NamedTuple` subclasses, whose fields are their annotated class attributes (as for
`@dataclass`). SGLang 0.5.23 declares host pool sizes in such records (`HostPoolStorageInfo`),
so where each field's value was written is remembered: that is where a finding points.
"""

from __future__ import annotations

import re
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
    """`dataclass_fields`, each with its annotation (`ClassVar[int]`). A field a subclass
    declares again keeps its first place (as `dataclasses` orders it); the `_: KW_ONLY`
    marker is no field."""
    return [
        (small.target.value, small.value, klass, small.annotation.annotation)
        for klass, small, _ in _class_fields(cls)
    ]


def _class_fields(cls: ClassInfo) -> list[tuple[ClassInfo, cst.AnnAssign, bool]]:
    """Every `name: T` of the classes of `cls`'s MRO, base first, as `dataclasses` collects
    them: a field declared again keeps its first place and takes its last declaration (a dict
    keeps a key's place when it is set again); the `_: KW_ONLY` marker is no field, and each
    field carries whether it is taken by keyword only (the marker above it, or
    `@dataclass(kw_only=True)` on its class)."""
    fields: dict[str, tuple[ClassInfo, cst.AnnAssign, bool]] = {}
    for klass in reversed(cls.mro()):
        keyword_only = _dataclass_keyword(klass, "kw_only")
        for small in _annotated(klass):
            if annotation_head(small.annotation.annotation) == "KW_ONLY":
                keyword_only = True
                continue
            fields[small.target.value] = (klass, small, keyword_only)
    return list(fields.values())


def _annotated(klass: ClassInfo) -> list[cst.AnnAssign]:
    """The `name: T [= default]` statements of a class body, in order."""
    return [
        small
        for statement in klass.node.body.body
        if isinstance(statement, cst.SimpleStatementLine)
        for small in statement.body
        if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name)
    ]


def annotation_head(annotation: cst.BaseExpression) -> str:
    """The last name of an annotation's outer type: `ClassVar` for `typing.ClassVar[int]`
    and for `"ClassVar[int]"`, `KW_ONLY` for `dataclasses.KW_ONLY`."""
    node = annotation
    if isinstance(node, cst.SimpleString):
        text = node.evaluated_value
        found = re.match(r"\s*([\w.]+)", text if isinstance(text, str) else "")
        return found.group(1).rsplit(".", 1)[-1] if found else ""
    if isinstance(node, cst.Subscript):
        node = node.value
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return node.attr.value
    return ""


class InitField(NamedTuple):
    """One parameter of a dataclass's generated `__init__`, or a `ClassVar`-free field."""

    name: str
    spec: FieldSpec
    klass: ClassInfo  # the class declaring it (where its default is evaluated)
    init_var: bool  # an `InitVar`: given to `__post_init__`, never an attribute


def init_fields(cls: ClassInfo) -> list[InitField]:
    """The fields the generated `__init__` of `cls` handles, in Python's order: `ClassVar`s
    left out, `kw_only` as the field, the `_: KW_ONLY` marker above it or
    `@dataclass(kw_only=True)` on its class says."""
    fields = []
    for klass, small, keyword_only in _class_fields(cls):
        head = annotation_head(small.annotation.annotation)
        if head != "ClassVar":
            spec = field_spec(small.value, klass, keyword_only)
            fields.append(InitField(small.target.value, spec, klass, head == "InitVar"))
    return fields


def _dataclass_keyword(klass: ClassInfo, keyword: str) -> bool:
    """Does the class's `@dataclass(...)` decorator say `keyword=True`?"""
    code = klass.module.parsed.code
    for decorator in klass.node.decorators:
        call = decorator.decorator
        if isinstance(call, cst.Call) and "dataclass" in code(call.func):
            for arg in call.args:
                if arg.keyword is not None and arg.keyword.value == keyword:
                    return code(arg.value).strip() == "True"
    return False


class FieldSpec(NamedTuple):
    """What `name: T = field(default=..., init=..., kw_only=...)` tells the constructor."""

    default: cst.BaseExpression | None  # the value given when the caller gives none
    factory: cst.BaseExpression | None  # `default_factory=`: called for each object
    init: bool  # a constructor argument (`init=False`: set only by `__post_init__`)
    kw_only: bool  # taken by keyword only (skipped by positional arguments)


def field_spec(
    default: cst.BaseExpression | None, klass: ClassInfo, keyword_only: bool = False
) -> FieldSpec:
    """A field's declaration: its plain default, or what its `dataclasses.field(...)` says
    (other keywords, such as `compare=` or `repr=`, do not change what is built);
    `keyword_only` is what the class says of fields that do not say."""
    if not (isinstance(default, cst.Call) and _names_field(default.func, klass)):
        return FieldSpec(default, None, True, keyword_only)
    given = {a.keyword.value: a.value for a in default.args if a.keyword is not None}
    code = klass.module.parsed.code

    def flag(name: str, otherwise: bool) -> bool:
        value = given.get(name)
        return otherwise if value is None else code(value).strip() == "True"

    return FieldSpec(
        given.get("default"),
        given.get("default_factory"),
        flag("init", True),
        flag("kw_only", keyword_only),
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


def is_dataclass_of_tree(cls: ClassInfo) -> bool:
    return any(k.node.decorators and _is_dataclass(k) for k in cls.mro())


def _is_dataclass(cls: ClassInfo) -> bool:
    return cls.node.decorators and any(
        "dataclass" in cls.module.parsed.code(d.decorator) for d in cls.node.decorators
    )
