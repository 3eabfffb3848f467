"""Buffers allocated after construction: a pool whose constructor leaves its buffers empty
(`self.kv_data = None`, `self.k = []`) and a method taking nothing but `self` allocates them
(`def reserve(self)`, called by the code that builds the pool: `dev = PagedCache(cfg);
dev.reserve()`). Measuring reads a built pool's attributes, so such a method is run on the
built pool, once, where every buffer it sets is still empty: the pool then holds what the code
that builds it makes it hold. A method the constructor already ran finds its buffers set and
is not run again.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from auditor.frontend.behaviour import allocates
from auditor.frontend.index import ClassInfo
from auditor.frontend.scope import class_node, cpython_tree
from auditor.interpret.control import Infeasible
from auditor.interpret.values import Instance, is_unknown

if TYPE_CHECKING:
    from auditor.interpret.machine import Interpreter

# id(class) -> (the class, its allocating methods and the attributes each sets): the class is
# kept so that an id reused by another class is never read as this one's
_FOUND: dict[int, tuple[ClassInfo, tuple[tuple[str, frozenset[str]], ...]]] = {}
_TREES: dict = {}


def lazy_allocators(cls: ClassInfo) -> tuple[tuple[str, frozenset[str]], ...]:
    """The methods of the class (its MRO, the first definition of a name) taking only `self`
    that set `self.` attributes to allocations or append allocations to them, each with those
    attributes; `__init__`, properties and dunder methods aside."""
    known = _FOUND.get(id(cls))
    if known is not None and known[0] is cls:
        return known[1]
    found: list[tuple[str, frozenset[str]]] = []
    seen: set[str] = set()
    for klass in cls.mro():
        tree = cpython_tree(klass.module, _TREES)
        node = class_node(tree, klass) if tree is not None else None
        for method in node.body if node is not None else []:
            if not isinstance(method, ast.FunctionDef) or method.name in seen:
                continue
            seen.add(method.name)
            if method.name.startswith("__") or method.decorator_list:
                continue
            arguments = method.args
            if (
                len(arguments.posonlyargs) + len(arguments.args) != 1
                or arguments.vararg is not None
                or any(d is None for d in arguments.kw_defaults)
            ):
                continue
            attributes = _allocated_attributes(method)
            if attributes:
                found.append((method.name, attributes))
    _FOUND[id(cls)] = (cls, tuple(found))
    return tuple(found)


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
    """Run each lazy allocator of the pool's class whose attributes are all still empty."""
    for name, attributes in lazy_allocators(pool.cls):
        if not all(_empty(pool.attrs.get(a)) for a in attributes):
            continue
        method = pool.cls.find_method(name)
        if method is None:
            continue
        location = method.module.parsed.location(method.node.name)
        try:
            bound = interpreter.get_attribute(pool, name, location)
            if not is_unknown(bound):
                interpreter.call(bound, [], {}, location)
        except Infeasible:
            continue
