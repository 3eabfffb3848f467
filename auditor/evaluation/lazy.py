"""Buffers allocated after construction: a pool whose constructor leaves its buffers empty
(`self.kv_data = None`, `self.k = []`) and a method taking nothing but `self` allocates them
(`def reserve(self)`), which the code that builds the pool calls on it (`dev = PagedCache(cfg);
dev.reserve()`). Measuring reads a built pool's attributes, so such a method is run on the
built pool, once, where every buffer it sets is still empty: the pool then holds what the code
that builds it makes it hold.

Only a method the audited code calls on a variable (`<name>.reserve()`, never through `self`:
a method the class calls itself, under a flag or not, runs where the class calls it) is run,
and only one that clears nothing (no `self.x = None`, no `del`): a method that frees one
buffer to make another (`offload()`) is not the pool's layout. A method that fails or exceeds
the interpreter's limits leaves the pool as its constructor built it.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from auditor.frontend.behaviour import allocates
from auditor.frontend.index import ClassInfo
from auditor.frontend.scope import class_node, cpython_tree
from auditor.interpret.control import BudgetExceeded, Infeasible
from auditor.interpret.values import Instance, is_unknown

if TYPE_CHECKING:
    from auditor.interpret.machine import Interpreter

# what one index's modules and classes were found to have; reset when another index is
# audited (a run holds one index: the cache never outlives the run that filled it by more than
# one index)
_STATE: dict[str, Any] = {"index": None}


def _state(index: Any) -> dict[str, Any]:
    if _STATE["index"] is not index:
        _STATE.update(index=index, trees={}, found={}, walked={}, called=frozenset())
    return _STATE


def _called_on_names(index: Any, state: dict[str, Any]) -> frozenset[str]:
    """Names of methods the audited code calls with no argument on a variable
    (`cache.allocate()`, `self.pool.reserve()`), never on `self` itself. Modules are indexed
    as names reach them: each is walked once, when first seen here."""
    walked: dict[str, frozenset[str]] = state["walked"]
    if len(walked) == len(index.modules):  # (every build asks: nothing new, nothing to do)
        return state["called"]
    fresh = [(key, module) for key, module in index.modules.items() if key not in walked]
    for key, module in fresh:
        tree = cpython_tree(module, state["trees"])
        walked[key] = frozenset(
            node.func.attr
            for node in (ast.walk(tree) if tree is not None else ())
            if isinstance(node, ast.Call)
            and not node.args
            and not node.keywords
            and isinstance(node.func, ast.Attribute)
            and not (isinstance(node.func.value, ast.Name) and node.func.value.id == "self")
        )
    if fresh:
        called = frozenset().union(*walked.values())
        if called != state["called"]:  # (what the classes were found to have may change)
            state["called"], state["found"] = called, {}
    return state["called"]


def lazy_allocators(cls: ClassInfo, index: Any) -> tuple[tuple[str, frozenset[str]], ...]:
    """The methods of the class (its MRO, the first definition of a name) taking only `self`
    that set `self.` attributes to allocations or append allocations to them, clear none,
    and are called on a variable somewhere in the audited code; each with those attributes.
    `__init__`, dunder methods and decorated methods (properties) aside."""
    state = _state(index)
    called = _called_on_names(index, state)
    known = state["found"].get(id(cls))
    if known is not None:
        return known
    found: list[tuple[str, frozenset[str]]] = []
    seen: set[str] = set()
    for klass in cls.mro():
        tree = cpython_tree(klass.module, state["trees"])
        node = class_node(tree, klass) if tree is not None else None
        for member in node.body if node is not None else []:
            names = _bound_names(member)
            if not isinstance(member, ast.FunctionDef) or member.name in seen:
                seen |= names
                continue
            seen.add(member.name)
            if member.name.startswith("__") or member.decorator_list or member.name not in called:
                continue
            arguments = member.args
            if (
                len(arguments.posonlyargs) + len(arguments.args) != 1
                or arguments.vararg is not None
                or any(d is None for d in arguments.kw_defaults)
                or _clears(member)
            ):
                continue
            attributes = _allocated_attributes(member)
            if attributes:
                found.append((member.name, attributes))
    state["found"][id(cls)] = tuple(found)
    return tuple(found)


def _bound_names(member: ast.stmt) -> set[str]:
    """Names a class body statement binds (`async def f`, `f = g`): they hide a base's `f`."""
    if isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {member.name}
    if isinstance(member, (ast.Assign, ast.AnnAssign)):
        targets = member.targets if isinstance(member, ast.Assign) else [member.target]
        return {t.id for t in targets if isinstance(t, ast.Name)}
    return set()


def _clears(method: ast.FunctionDef) -> bool:
    """Does the method set a `self.` attribute to None, or delete one?"""
    for node in ast.walk(method):
        if isinstance(node, ast.Delete):
            return True
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Constant)
            and node.value.value is None
            and any(
                isinstance(t, ast.Attribute)
                and isinstance(t.value, ast.Name)
                and t.value.id == "self"
                for t in node.targets
            )
        ):
            return True
    return False


def _allocated_attributes(method: ast.FunctionDef) -> frozenset[str]:
    """`x` of each `self.x = <allocation>` and `self.x.append(<allocation>)` in the method."""
    found: set[str] = set()
    for node in ast.walk(method):
        target, value = None, None
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            target, value = (targets[0] if len(targets) == 1 else None), node.value
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("append", "extend")
            and node.args
        ):
            target, value = node.func.value, node.args[0]
        if (
            isinstance(target, ast.Attribute)
            and isinstance(target.value, ast.Name)
            and target.value.id == "self"
            and value is not None
            and allocates(value)
        ):
            found.add(target.attr)
    return frozenset(found)


def _empty(value: object) -> bool:
    return value is None or (isinstance(value, (list, dict, tuple)) and not value)


def run_lazy_allocators(interpreter: Interpreter, pool: Instance) -> None:
    """Run each lazy allocator of the pool's class whose attributes are all still empty; one
    that fails leaves the pool's attributes as they were."""
    for name, attributes in lazy_allocators(pool.cls, interpreter.index):
        if not all(_empty(pool.attrs.get(a)) for a in attributes):
            continue
        method = pool.cls.find_method(name)
        if method is None:
            continue
        location = method.module.parsed.location(method.node.name)
        before, steps = dict(pool.attrs), interpreter.steps
        try:
            bound = interpreter.get_attribute(pool, name, location)
            if not is_unknown(bound):
                interpreter.call(bound, [], {}, location)
        except (Infeasible, BudgetExceeded, RecursionError):
            pool.attrs.clear()
            pool.attrs.update(before)
            interpreter.steps = steps  # (what the abandoned method spent is not charged)
