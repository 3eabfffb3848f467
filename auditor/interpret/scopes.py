"""Frames and deferred bindings: where the interpreter keeps names while it runs code."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import libcst as cst

from auditor.frontend.index import ClassInfo, FunctionInfo, ModuleInfo
from auditor.interpret.memos import MEMOS
from auditor.interpret.values import Unknown


class Frame:
    """One running scope: a function call, a module body or a class body."""

    def __init__(
        self,
        module: ModuleInfo,
        locals_: dict,
        function: FunctionInfo | None = None,
        declarative: bool = False,
        class_body: ClassInfo | None = None,
    ) -> None:
        self.module = module
        self.locals = locals_
        self.function = function
        self.declarative = declarative
        self.class_body = class_body
        self.parent_scope: dict | None = None
        # the expression each local was last assigned from, for showing arithmetic
        self.sources: dict[str, tuple[cst.BaseExpression, Frame]] = {}
        self.owner: ClassInfo | None = None  # class whose method runs, for super()
        self.receiver: Any = None  # `self` of the running method
        self.undecided_return: Unknown | None = None
        # a generator function's run: what its `yield`s gave, in order (machine.call_function)
        self.yielded: list | None = None


@dataclass(eq=False)
class Thunk:
    """A module- or class-level assignment, evaluated the first time its name is read."""

    node: cst.BaseExpression
    frame: Frame
    evaluating: bool = False


@dataclass(eq=False)
class LazyImport:
    """An import binding, resolved inside the audited tree the first time its name is read."""

    source: str
    attr: str | None
    near: ModuleInfo | None = None  # the importing module: prefer its own audited root
    resolving: bool = False


# methods that change a list, dict or set in place
_MUTATORS = frozenset(
    {
        "append",
        "extend",
        "insert",
        "pop",
        "remove",
        "clear",
        "update",
        "setdefault",
        "add",
        "discard",
        "sort",
        "reverse",
        "popitem",
    }
)


class _TargetCollector(cst.CSTVisitor):
    def __init__(self) -> None:
        self.names: list[str] = []
        self.self_attrs: list[str] = []
        self.returns = False
        self.calls = False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.names.append(node.name.value)
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.names.append(node.name.value)
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_Return(self, node: cst.Return) -> None:
        self.returns = True

    def visit_Call(self, node: cst.Call) -> None:
        self.calls = True

    def _target(self, target: cst.BaseExpression) -> None:
        if isinstance(target, cst.Name):
            self.names.append(target.value)
        elif isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name):
            if target.value.value == "self":
                self.self_attrs.append(target.attr.value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._target(element.value)
        elif isinstance(target, cst.StarredElement):
            self._target(target.value)

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._target(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._target(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._target(node.target)

    def visit_For(self, node: cst.For) -> None:
        self._target(node.target)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._target(node.target)

    def visit_AsName(self, node: cst.AsName) -> None:
        if isinstance(node.name, cst.Name):
            self.names.append(node.name.value)

    def visit_ImportAlias(self, node: cst.ImportAlias) -> None:
        if node.asname is None:
            name = node.name
            while isinstance(name, cst.Attribute):
                name = name.value
            if isinstance(name, cst.Name):
                self.names.append(name.value)

    def visit_Del(self, node: cst.Del) -> None:
        self._target(node.target)


class _ChangedCollector(cst.CSTVisitor):
    """Locals and `self.` attributes a block changes in place (`out.append(x)`, `table[k] =
    v`), each as ("name", x) or ("self", x)."""

    def __init__(self) -> None:
        self.changed: list[tuple[str, str]] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def _changed(self, container: cst.BaseExpression) -> None:
        if isinstance(container, cst.Name) and container.value != "self":
            self.changed.append(("name", container.value))
        elif isinstance(container, cst.Attribute) and isinstance(container.value, cst.Name):
            if container.value.value == "self":
                self.changed.append(("self", container.attr.value))

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in _MUTATORS:
            self._changed(func.value)

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        if isinstance(node.target, cst.Subscript):
            self._changed(node.target.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.target, cst.Subscript):
            self._changed(node.target.value)


def changed_in_place(statements) -> list[tuple[str, str]]:
    """What a block may change in place without binding it (`out.append(x)`, `d[k] = v`):
    ("name", local) or ("self", attribute). An undecided block leaves those unknown.
    Remembered per block, as assigned_targets is."""
    key = tuple(statements)
    found = _CHANGED.get(key)
    if found is None:
        collector = _ChangedCollector()
        for statement in statements:
            statement.visit(collector)
        found = tuple(collector.changed)
        if len(_CHANGED) >= MEMOS.limits["changed"]:
            _CHANGED.clear()
        _CHANGED[key] = found
    return list(found)


_TARGETS = MEMOS.targets  # memos.py: one exact block (its nodes by identity) -> its facts
_SELF_CALLS = MEMOS.self_calls
_CHANGED = MEMOS.changed
_RAISES = MEMOS.raises


def assigned_targets(statements) -> tuple[list[str], list[str], bool, bool]:
    """Names and `self.` attributes a block may bind, whether it returns, whether it calls.

    Remembered per block: undecided branches of the same code are met at every config point.
    """
    key = tuple(statements)
    found = _TARGETS.get(key)
    if found is None:
        collector = _TargetCollector()
        for statement in statements:
            statement.visit(collector)
        found = (
            tuple(collector.names),
            tuple(collector.self_attrs),
            collector.returns,
            collector.calls,
        )
        if len(_TARGETS) >= MEMOS.limits["targets"]:
            _TARGETS.clear()
        _TARGETS[key] = found
    return list(found[0]), list(found[1]), found[2], found[3]


class _SelfCallCollector(cst.CSTVisitor):
    def __init__(self) -> None:
        self.names: list[str] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if (
            isinstance(func, cst.Attribute)
            and isinstance(func.value, cst.Name)
            and func.value.value == "self"
        ):
            self.names.append(func.attr.value)


def self_method_calls(statements) -> list[str]:
    """Names of `self.method(...)` calls in a block (not inside nested definitions)."""
    key = tuple(statements)
    found = _SELF_CALLS.get(key)
    if found is None:
        collector = _SelfCallCollector()
        for statement in statements:
            statement.visit(collector)
        found = tuple(collector.names)
        if len(_SELF_CALLS) >= MEMOS.limits["self_calls"]:
            _SELF_CALLS.clear()
        _SELF_CALLS[key] = found
    return list(found)


def raises_in(statements) -> bool:
    """Does a block contain a `raise` (outside nested definitions)?

    Remembered per block, as `assigned_targets` is: the same undecided branches are met at every
    config point, and walking a block's `children` runs a libcst visitor per node.
    """
    key = tuple(statements)
    found = _RAISES.get(key)
    if found is None:
        found = _walk_raises(statements)
        if len(_RAISES) >= MEMOS.limits["raises"]:
            _RAISES.clear()
        _RAISES[key] = found
    return found


def _walk_raises(statements) -> bool:
    pending = list(statements)
    while pending:
        node = pending.pop()
        if isinstance(node, cst.Raise):
            return True
        if not isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            pending.extend(node.children)
    return False


_GENERATORS: dict[int, tuple[cst.FunctionDef, bool]] = {}


class _YieldFinder(cst.CSTVisitor):
    """Is there a `yield` in a function's own body (not in a function or class inside it)?"""

    def __init__(self) -> None:
        self.found = False

    def visit_Yield(self, node: cst.Yield) -> bool:
        self.found = True
        return False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False


def yields_in(statements) -> bool:
    """Does a block hold a `yield` of its own function (a generator's undecided part)?"""
    finder = _YieldFinder()
    for statement in statements:
        statement.visit(finder)
    return finder.found


def is_generator(function: cst.FunctionDef) -> bool:
    """A generator function: one whose own body yields. Remembered per function node."""
    known = _GENERATORS.get(id(function))
    if known is None or known[0] is not function:
        known = (function, yields_in(function.body.body))
        _GENERATORS[id(function)] = known
    return known[1]
