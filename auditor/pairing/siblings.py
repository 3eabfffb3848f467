"""Two device pools one function builds from the same configuration: disaggregated siblings.

Prefill and decode pools of disaggregated serving (and any two pools one side writes and the
other reads) are not host and device: neither takes the other. They must still agree byte for
byte, buffer by buffer: the decode side receives what the prefill side ships. The code says
they belong together where one function builds both, on one path (not in exclusive branches),
from the same arguments: `PrefillKVPool(cfg, dev0), DecodeKVPool(cfg, dev1)`. Such a pair is
compared as any other, the later-built pool in the host's place, each built on its own at the
same config point (evaluate.py pins what only one of them takes to its default, as the call
leaves it). Only syntax is read here; nothing engine-specific.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator

from auditor.evaluation.matrix import parameter_names
from auditor.evaluation.roles import RoleBook
from auditor.frontend.index import ClassInfo, ModuleInfo, ProjectIndex, absolute_module
from auditor.frontend.parse import ParsedModule
from auditor.frontend.scope import cpython_tree, file_tree
from auditor.location import Location
from auditor.pairing.evidence import SIBLING, Evidence, Pair
from auditor.pairing.sites import candidate_modules

# A call, the device class it builds, and the branches it lies in: (id of the `if`, arm)
Call = tuple[ast.Call, ClassInfo, tuple[tuple[int, int], ...]]


def sibling_pairs(
    index: ProjectIndex,
    parsed: list[ParsedModule],
    devices: list[ClassInfo],
    hosts: list[ClassInfo],
    pairs: list[Pair],
    book: RoleBook,
    trees: dict,
) -> list[Pair]:
    """Pairs of device pools built beside each other from the same arguments (see above)."""
    if len(devices) < 2:
        return []
    by_name: dict[str, list[ClassInfo]] = {}
    for device in devices:
        by_name.setdefault(device.name, []).append(device)
    taken = {frozenset((id(p.host), id(p.device))) for p in pairs}
    host_ids = {id(h) for h in hosts}
    found: list[Pair] = []

    def builds_two(module: ParsedModule) -> bool:
        tree = file_tree(module, trees)
        return tree is not None and _may_build_two(tree, by_name)

    for module in candidate_modules(index, parsed, set(by_name), builds_two):
        tree = cpython_tree(module, trees)
        if tree is None:
            continue
        for qualname, function in _functions(tree, module.name):
            calls = list(_device_calls(index, module, function, by_name))
            for (first, a, where_a), (second, b, where_b) in itertools.combinations(calls, 2):
                key = frozenset((id(a), id(b)))
                if a is b or key in taken or host_ids & {id(a), id(b)}:
                    continue
                if _exclusive(where_a, where_b) or not _allocated(book, a) & _allocated(book, b):
                    continue
                shared = same_arguments(book, a, first, b, second)
                if shared is None:
                    continue
                taken.add(key)
                evidence = Evidence(
                    SIBLING,
                    location=Location(module.path, second.lineno, second.col_offset + 1),
                    function=qualname,
                    how="direct call",
                    arguments=tuple(shared),
                    note=f"built beside {a.name} (line {first.lineno}) from the same "
                    f"arguments ({', '.join(shared)})",
                )
                found.append(Pair(b, a, evidence))
    return found


def _functions(tree: ast.Module, prefix: str) -> Iterator[tuple[str, ast.AST]]:
    """Every function and method, nested ones included, with its qualified name."""
    stack: list[tuple[ast.AST, str]] = [(tree, prefix)]
    while stack:
        node, name = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield f"{name}.{child.name}", child
                stack.append((child, f"{name}.{child.name}"))
            elif isinstance(child, ast.ClassDef):
                stack.append((child, f"{name}.{child.name}"))
            elif not isinstance(child, ast.Lambda):
                stack.append((child, name))


def _may_build_two(tree: ast.Module, by_name: dict) -> bool:
    """Whether some function calls device classes by name at least twice (what
    `_device_calls` can find two of), read off CPython's tree before libcst parses the module:
    most modules naming a pool class only test or annotate it."""
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        local = {
            alias.asname or alias.name: alias.name
            for n in ast.walk(node)
            if isinstance(n, ast.ImportFrom)
            for alias in n.names
        }
        calls = 0
        for n in ast.walk(node):
            if isinstance(n, ast.Call):
                func = n.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if name is not None and local.get(name, name) in by_name:
                    calls += 1
                    if calls == 2:
                        return True
    return False


def _device_calls(
    index: ProjectIndex, module: ModuleInfo, function: ast.AST, by_name: dict
) -> Iterator[Call]:
    """The calls of the function's own body (not of functions defined in it) that build a
    device pool class by its name, imported at module level or in the function."""
    local: dict[str, tuple[str, str]] = {}  # `from .prefill_pool import PrefillKVPool`
    for node in ast.walk(function):
        if isinstance(node, ast.ImportFrom):
            source = absolute_module(module, node.level, node.module)
            for alias in node.names:
                local[alias.asname or alias.name] = (source, alias.name)

    def visit(node: ast.AST, where: tuple) -> Iterator[Call]:
        if isinstance(node, ast.Call):
            cls = _device_class(index, module, node.func, local, by_name)
            if cls is not None:
                yield node, cls, where
        if isinstance(node, ast.If):
            yield from visit(node.test, where)
            for arm, body in enumerate((node.body, node.orelse)):
                for child in body:
                    yield from visit(child, (*where, (id(node), arm)))
            return
        if isinstance(node, ast.IfExp):
            yield from visit(node.test, where)
            for arm, child in enumerate((node.body, node.orelse)):
                yield from visit(child, (*where, (id(node), arm)))
            return
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if not isinstance(child, ast.Lambda):
                    yield from visit(child, where)

    for statement in function.body:  # type: ignore[attr-defined]
        yield from visit(statement, ())


def _device_class(
    index: ProjectIndex, module: ModuleInfo, func: ast.expr, local: dict, by_name: dict
) -> ClassInfo | None:
    name = func.id if isinstance(func, ast.Name) else None
    if isinstance(func, ast.Attribute):
        name = func.attr
    candidates = by_name.get(local.get(name, ("", name))[1] if name else "", [])
    if not candidates:
        return None
    if isinstance(func, ast.Name) and func.id in local:
        source, attr = local[func.id]
        found = index.resolve_import(source, attr, 0, module)
    else:
        found = index.resolve_static(module, ast.unparse(func))
    return found if isinstance(found, ClassInfo) and found in candidates else None


def _exclusive(a: tuple, b: tuple) -> bool:
    """Do the two calls lie in different arms of one `if` (or conditional expression)?"""
    arms = dict(a)
    return any(branch in arms and arms[branch] != arm for branch, arm in b)


def _allocated(book: RoleBook, cls: ClassInfo) -> set[str]:
    facts = book.facts(cls)
    return set(facts.allocated) if facts is not None else set()


def same_arguments(
    book: RoleBook, a: ClassInfo, call_a: ast.Call, b: ClassInfo, call_b: ast.Call
) -> list[str] | None:
    """The argument texts both calls pass for what sizes either pool, when every parameter
    that sizes a buffer of either (token and layer counts aside: bytes are per token per
    layer) is passed the same text by both calls, or by neither; else None. At least one such
    argument must be shared: the configuration they are built from."""
    bound_a, bound_b = _bound(call_a, a), _bound(call_b, b)
    if bound_a is None or bound_b is None:
        return None
    counts = set(book.fixed(a)) | set(book.fixed(b))
    for cls in (a, b):
        block = book.block(cls)
        if block is not None:
            counts.add(block)
    sizing = _sizing(book, a) | _sizing(book, b)
    shared: list[str] = []
    for name in sorted((set(bound_a) | set(bound_b) | sizing) - counts):
        if name not in sizing:
            continue
        text_a, text_b = bound_a.get(name), bound_b.get(name)
        if text_a != text_b:
            return None
        if text_a is not None and text_a not in shared:
            shared.append(text_a)
    return shared or None


def _bound(call: ast.Call, cls: ClassInfo) -> dict[str, str] | None:
    """Constructor parameter -> the argument's text; None when `*`/`**` hide the binding."""
    names = parameter_names(cls)
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return None
    if len(call.args) > len(names):
        return None
    bound = {name: ast.unparse(arg) for name, arg in zip(names, call.args)}
    bound.update((k.arg, ast.unparse(k.value)) for k in call.keywords if k.arg is not None)
    return bound


def _sizing(book: RoleBook, cls: ClassInfo) -> set[str]:
    """Constructor parameters a buffer's shape or dtype depends on, or that choose one."""
    facts = book.facts(cls)
    if facts is None:
        return set()
    names: set[str] = set()
    for shape in facts.shapes:
        for dim in shape:
            names |= dim
    names |= facts.dtype_params | set(facts.flags) | facts.sized_by
    names |= set(facts.objects) | facts.range_roots | set(facts.tables) | set(facts.members)
    own = set(parameter_names(cls))
    return {n.partition(".")[0] for n in names} & own
