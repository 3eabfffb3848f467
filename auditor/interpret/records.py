"""Record classes without an `__init__` of their own in the tree: `msgspec.Struct` and
`typing.NamedTuple` subclasses, whose fields are their annotated class attributes (as for
`@dataclass`). SGLang 0.5.23 declares host pool sizes in such records (`HostPoolStorageInfo`),
so where each field's value was written is remembered: that is where a finding points.
"""

from __future__ import annotations

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
