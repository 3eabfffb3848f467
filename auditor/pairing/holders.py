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
    runtime = [c for owner in owners for c in (owner, *index.all_subclasses(owner))]
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
            found = _constructed_in(index, cls, statement, attribute, runtime)
            if found is None:
                return None
            classes.extend(c for c in found if c not in classes)
    return tuple(classes) or None


def _constructed_in(
    index: ProjectIndex,
    cls: ClassInfo,
    function: cst.FunctionDef,
    attribute: str,
    runtime: list[ClassInfo],
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
        if not bindings and local not in names.names:
            passed = _parameter_classes(index, cls, function, scope, local, runtime)
            if passed is None:
                return None
            found.extend(passed)
            continue
        if not bindings or local not in names.names:
            return None
        for bound in bindings:
            chosen = scope.resolve_class(bound.value) if dotted(bound.value) else None
            if chosen is None:
                return None
            found.append(chosen)
    return found


def _parameter_classes(
    index: ProjectIndex,
    cls: ClassInfo,
    function: cst.FunctionDef,
    scope: FunctionScope,
    name: str,
    runtime: list[ClassInfo],
) -> list[ClassInfo] | None:
    """A class taken as a parameter (`main_pool_cls=MHAPool`), for each class the object can
    be: what the nearest subclass between it and `cls` passes for it
    (`super().__init__(main_pool_cls=FP4Pool)`), else the default. None when the default is no
    class, or a subclass passes something else. (A caller constructing the class itself with
    another class is not searched for.)"""
    parameter = next(
        (
            p
            for p in (*function.params.params, *function.params.kwonly_params)
            if p.name.value == name
        ),
        None,
    )
    if parameter is None or parameter.default is None or dotted(parameter.default) is None:
        return None
    default = scope.resolve_class(parameter.default)
    if default is None:
        return None
    found: list[ClassInfo] = []
    for actual in runtime:
        mro = actual.mro()
        if cls not in mro:
            continue
        chosen: ClassInfo | None = default
        for between in mro[: mro.index(cls)]:
            passed = _passes(index, between, name)
            if passed is False:
                continue
            chosen = passed
            break
        if chosen is None:
            return None
        if chosen not in found:
            found.append(chosen)
    return found


def _passes(index: ProjectIndex, cls: ClassInfo, name: str) -> ClassInfo | None | bool:
    """The class `cls`'s own methods pass as `name=` (False: none passed; None: not a class)."""
    if f"{name}=" not in cls.module.parsed.code(cls.node):
        return False
    scope = FunctionScope(index, cls.module, {})
    for call in _calls(cls.node):
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value == name:
                return scope.resolve_class(arg.value) if dotted(arg.value) else None
    return False


def _calls(node: cst.CSTNode) -> list[cst.Call]:
    calls: list[cst.Call] = []

    class _Visitor(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            calls.append(call)

    node.visit(_Visitor())
    return calls


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
