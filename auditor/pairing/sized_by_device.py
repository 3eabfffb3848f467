"""Hosts sized by their device: a host pool that reads its figure of bytes per token off a
tensor its device pool hands it (`page_bytes = device_pool.get_page_envelope_buffer().shape[1]`)
and allocates nothing at a size of its own has no layout that could disagree with its device's.

Such a host (SGLang 0.5.23's `UnifiedPageEnvelopeHostPool`, which copies whole page envelopes of
a unified arena) is never paired when the audit cannot build the device it receives. It is then
not "never paired" for want of evidence but "sized by its device": still not compared, listed
with what was read and why, and counted apart, like a view of the device pool (coverage.py).

What is checked, and nothing more: in its own `__init__`, a value read off the shape of a tensor
obtained from the device parameter (`.shape`, `.size()`, `.nbytes`, `.numel()`, `.stride()`,
`.element_size()`) is stored on `self`; the constructor calls no base constructor (whose
allocations would have a formula of their own); and every tensor its own methods allocate
(`torch.zeros(...)`) is sized by such stored figures only, outside `__init__`. Any other
allocation, or none of the device's figures stored, and the host stays "never paired".
"""

from __future__ import annotations

import ast

from auditor.frontend import walk
from auditor.frontend.behaviour import ALLOCATORS
from auditor.frontend.index import ClassInfo
from auditor.frontend.scope import class_node, cpython_tree, def_node

_SHAPE_ATTRIBUTES = frozenset({"shape", "nbytes", "itemsize"})
_SHAPE_METHODS = frozenset({"size", "numel", "element_size", "stride", "nbytes"})


def sized_by_device(host: ClassInfo, parameter: str, trees: dict) -> str | None:
    """Why `host` is sized by the device it receives by `parameter` (what it reads, and the
    attributes holding it), or None when it is not shown to be."""
    tree = cpython_tree(host.module, trees)
    node = class_node(tree, host) if tree is not None else None
    init = def_node(node.body, "__init__") if node is not None else None
    if init is None or _calls_base_constructor(init):
        return None
    assignments = [
        (s.targets, s.value) if isinstance(s, ast.Assign) else ([s.target], s.value)
        for s in walk.nodes(init)
        if isinstance(s, ast.Assign) or (isinstance(s, ast.AnnAssign) and s.value is not None)
    ]
    held = {parameter: ""}  # names holding the device pool or something read off it: whence
    figures: dict[str, str] = {}  # names holding a figure read off its tensors: the read
    stored: dict[str, str] = {}  # self attributes holding such a figure: the read
    for _ in range(len(assignments) + 1):  # until nothing changes (any order of statements)
        before = (len(held), len(figures), len(stored))
        for targets, value in assignments:
            names = _names(value)
            read = _shape_read(value, held) or next(
                (figures[n] for n in sorted(names) if n in figures), None
            )
            for target in targets:
                if isinstance(target, ast.Name) and read is not None:
                    figures.setdefault(target.id, read)
                elif isinstance(target, ast.Name) and names & held.keys():
                    held.setdefault(target.id, ast.unparse(value))
                elif _is_self_attribute(target) and read is not None:
                    stored.setdefault(target.attr, read)
        if (len(held), len(figures), len(stored)) == before:
            break
    if not stored or not _allocates_only_at(node, init, stored, figures):
        return None
    attributes = ", ".join(sorted(stored))
    read = next(iter(stored.values()))
    whence = [f"{n} = {held[n]}" for n in sorted(_names(ast.parse(read))) if held.get(n)]
    return (
        f"its size per token ({attributes}) is read off the device pool's tensors "
        f"({'; '.join([read, *whence])}) and it allocates nothing at a size of its own: "
        "no layout of its own to compare"
    )


def _shape_read(value: ast.expr, held: dict[str, str]) -> str | None:
    """The source of a shape read off a value held from the device (`buf.shape[1]`)."""
    for node in walk.nodes(value):
        target = None
        if isinstance(node, ast.Attribute) and node.attr in _SHAPE_ATTRIBUTES:
            target = node.value
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _SHAPE_METHODS
        ):
            target = node.func.value
        if target is not None and _names(target) & held.keys():
            return ast.unparse(value)
    return None


def _allocates_only_at(
    node: ast.ClassDef, init: ast.FunctionDef, stored: dict, figures: dict
) -> bool:
    """No allocation in `__init__`; elsewhere, each sized by stored figures only."""
    for method in node.body:
        if not isinstance(method, ast.FunctionDef):
            continue
        for call in walk.nodes(method):
            if not _is_allocation(call):
                continue
            if method is init:
                return False
            sizes = [a for a in call.args if not isinstance(a, ast.Starred)]
            sizes += [k.value for k in call.keywords if k.arg == "size"]
            if not sizes or not all(_sized_by(s, stored) for s in sizes):
                return False
    return True


def _sized_by(size: ast.expr, stored: dict) -> bool:
    """A size made of stored figures (`self.item_bytes`) and integer literals only."""
    for node in walk.nodes(size):
        if _is_self_attribute(node):
            if node.attr not in stored:
                return False
        elif isinstance(node, ast.Name) and node.id != "self":
            return False
        elif isinstance(node, ast.Constant) and not isinstance(node.value, int):
            return False
    return True


def _is_allocation(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ALLOCATORS
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "torch"
    )


def _calls_base_constructor(init: ast.FunctionDef) -> bool:
    """`super().__init__(...)` or `Base.__init__(self, ...)`."""
    return any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "__init__"
        for node in walk.nodes(init)
    )


def _is_self_attribute(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    )


def _names(value: ast.AST) -> set[str]:
    return {n.id for n in walk.nodes(value) if isinstance(n, ast.Name)}
