"""What an attribute of an object can hold: the classes its owner constructs into it.

A host built from `self.hybrid_kv_cache.full_kv_pool`, after `isinstance(self.hybrid_kv_cache,
HybridLinearKVPool)`, gets whatever `HybridLinearKVPool` stores in `full_kv_pool`. When every
assignment of that attribute (in the owner, its bases and its indexed subclasses) constructs a
class named in the same method (`self.full_kv_pool = TokenToKVPoolClass(...)` with
`TokenToKVPoolClass` bound only to classes), the attribute holds exactly those classes: a device
pool outside that set cannot reach the site. When any assignment cannot be followed, the answer
is None: no narrowing, never a guess.
"""

from __future__ import annotations

import libcst as cst

from auditor.frontend.index import ClassInfo, ProjectIndex, dotted
from auditor.frontend.scope import FunctionScope, LocalNames, code_of
from auditor.pairing.guards import FunctionWalk, Guard

MAX_OWNERS = 32  # classes whose methods are read for one attribute; beyond, no narrowing


def held_classes(
    index: ProjectIndex, owners: tuple[ClassInfo, ...], attribute: str
) -> tuple[ClassInfo, ...] | None:
    """The exact classes `owner.<attribute>` can hold for any owner (or subclass) given."""
    classes: list[ClassInfo] = []
    seen: set[int] = set()
    related: list[ClassInfo] = []
    for owner in owners:
        for cls in [*owner.mro(), *index.all_subclasses(owner)]:
            if id(cls) not in seen:
                seen.add(id(cls))
                related.append(cls)
    if len(related) > MAX_OWNERS:
        return None
    for cls in related:
        for statement in cls.node.body.body:
            if not isinstance(statement, cst.FunctionDef):
                continue
            found = _constructed_in(index, cls, statement, attribute)
            if found is None:
                return None
            classes.extend(c for c in found if c not in classes)
    return tuple(classes) or None


def _constructed_in(
    index: ProjectIndex, cls: ClassInfo, function: cst.FunctionDef, attribute: str
) -> list[ClassInfo] | None:
    """Classes one method constructs into `self.<attribute>`; None if an assignment is opaque."""
    if f"self.{attribute}" not in cls.module.parsed.code(function):
        return []
    names = LocalNames(cls.module)
    function.body.visit(names)
    scope = FunctionScope(index, cls.module, names.bound)
    walk = FunctionWalk(scope)
    walk.block(function.body.body, ())
    found: list[ClassInfo] = []
    for binding in walk.assignments.get(f"self.{attribute}", []):
        value = binding.value
        if not isinstance(value, cst.Call) or dotted(value.func) is None:
            return None
        callee = scope.resolve_class(value.func)
        if callee is not None:
            found.append(callee)
            continue
        local = code_of(value.func)
        bindings = walk.assignments.get(local, [])
        if not bindings or local not in names.names:
            return None
        for bound in bindings:
            chosen = scope.resolve_class(bound.value) if dotted(bound.value) else None
            if chosen is None:
                return None
            found.append(chosen)
    return found


def subject_classes(
    subject: str, guards: tuple[Guard, ...], owner: ClassInfo | None
) -> tuple[ClassInfo, ...] | None:
    """The classes an expression is known to be an instance of on the path: `self` in a method,
    or a positive `isinstance` guard on it."""
    if subject == "self" and owner is not None:
        return (owner,)
    for guard in guards:
        if guard.subject == subject and guard.classes and not guard.negated:
            return guard.classes
    return None
