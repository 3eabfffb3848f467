"""The interpreter's memo tables, owned by one object with their bounds and one lifetime.

The same syntax is met at every build of every config point: where an expression is, its source
text, a literal's value, what a block assigns, whether it raises, a body's declaration plan.
Each fact depends on the node alone, so it is worked out once and looked up after. The tables
live here, not scattered as module globals, so one call forgets them all (`forget`, at the start
of every audit: a long-lived process does not carry one run's syntax into the next) and each
table has its bound beside it (a full table is cleared whole, so memory stays bounded).

Keys hold syntax nodes by identity (libcst nodes hash by id); a table that keys by `id()` keeps
the node in its value, so the id is not reused while the entry lives. Modules hold the tables
themselves (plain dicts: these lookups are the interpreter's inner loop).
"""

from __future__ import annotations

import weakref
from typing import Any


class Memos:
    """Every memo table of the interpreter, with its bound."""

    def __init__(self) -> None:
        self.locations: dict[int, tuple[Any, Any]] = {}  # id(node) -> (node, Location)
        self.sources: dict[Any, str] = {}  # node -> its source text
        self.literals: dict[Any, Any] = {}  # literal node -> its (immutable) value
        self.targets: dict[tuple, tuple] = {}  # block -> names, self attrs, returns, calls
        self.self_calls: dict[tuple, tuple[str, ...]] = {}  # block -> `self.m()` names
        self.changed: dict[tuple, tuple] = {}  # block -> what it changes in place
        self.raises: dict[tuple, bool] = {}  # block -> whether it holds a `raise`
        self.plans: dict[tuple, tuple] = {}  # body key -> (the body, its declaration plan)
        # id(function) -> (the function, the values it returns): pairing's rounds of factory
        # search ask each module's functions again (pairing/factories.py)
        self.returns: dict[int, tuple[Any, list]] = {}
        # per instance of a record: where each keyword field's value was written
        self.field_texts: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self.limits: dict[str, int] = {
            "locations": 200_000,
            "sources": 200_000,
            "literals": 200_000,
            "targets": 50_000,
            "self_calls": 50_000,
            "changed": 50_000,
            "raises": 50_000,
            "plans": 20_000,
            "returns": 50_000,
        }

    def tables(self) -> dict[str, dict | weakref.WeakKeyDictionary]:
        return {
            "locations": self.locations,
            "sources": self.sources,
            "literals": self.literals,
            "targets": self.targets,
            "self_calls": self.self_calls,
            "changed": self.changed,
            "raises": self.raises,
            "plans": self.plans,
            "returns": self.returns,
            "field_texts": self.field_texts,
        }

    def sizes(self) -> dict[str, int]:
        return {name: len(table) for name, table in self.tables().items()}

    def forget(self) -> None:
        """Empty every table (in place: the modules holding them keep the same objects)."""
        for table in self.tables().values():
            table.clear()


MEMOS = Memos()
