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
from auditor.frontend.behaviour import ALLOCATORS, TENSOR_ALLOCATORS
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
    mixed: set[str] = set()  # names and attributes holding the device's figure and its own
    for _ in range(len(assignments) + 1):  # until nothing changes (any order of statements)
        before = (len(held), len(figures), len(stored))
        for targets, value in assignments:
            names = _names(value)
            read = None
            if _device_figure(value, held, figures):  # the device's bytes, nothing of its own
                read = _shape_read(value, held) or next(
                    (figures[n] for n in sorted(names) if n in figures), None
                )
            elif names & figures.keys() or _shape_read(value, held) is not None:
                # the device's figure mixed with its own (`page_bytes * ratio`): a layout of
                # its own, kept on self or in a local
                mixed.update(
                    t.attr if _is_self_attribute(t) else getattr(t, "id", "") for t in targets
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
    if not stored or mixed or not _allocates_only_at(node, init, stored, figures):
        return None
    attributes = ", ".join(sorted(stored))
    read = next(iter(stored.values()))
    whence = [f"{n} = {held[n]}" for n in sorted(_names(ast.parse(read))) if held.get(n)]
    return (
        f"its size per token ({attributes}) is read off the device pool's tensors "
        f"({'; '.join([read, *whence])}) and it allocates nothing at a size of its own: "
        "no layout of its own to compare"
    )


def _device_figure(value: ast.expr, held: dict[str, str], figures: dict[str, str]) -> bool:
    """A figure read off the device's tensors and nothing of the host's own: a shape read, a
    name holding one, a whole number, `int(...)` of one, a sum or product of such, or such a
    figure divided by anything (`page_bytes // page_size`: per token of its pages). Not
    `host_tokens * heads * head_dim * buf.element_size()`: a layout of its own."""
    if isinstance(value, ast.Constant):
        return isinstance(value.value, int) and not isinstance(value.value, bool)
    if isinstance(value, ast.Name):
        return value.id in figures
    if isinstance(value, ast.BinOp):
        if isinstance(value.op, (ast.FloorDiv, ast.Div)):
            return _device_figure(value.left, held, figures)
        if isinstance(value.op, (ast.Add, ast.Sub, ast.Mult)):
            return _device_figure(value.left, held, figures) and _device_figure(
                value.right, held, figures
            )
        return False
    if isinstance(value, ast.Call) and _plain(value.func) == "int" and len(value.args) == 1:
        return _device_figure(value.args[0], held, figures)
    return _shape_read(value, held) is not None and _reads_only_shapes(value)


def _reads_only_shapes(value: ast.expr) -> bool:
    """`buf.shape[1]`, `t.nbytes`, `t.size(0)`: one shape read of a tensor, indexed at most."""
    if isinstance(value, ast.Subscript):
        return isinstance(value.slice, ast.Constant) and _reads_only_shapes(value.value)
    if isinstance(value, ast.Attribute):
        return value.attr in _SHAPE_ATTRIBUTES
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
        return value.func.attr in _SHAPE_METHODS and all(
            isinstance(a, ast.Constant) for a in value.args
        )
    return False


def _plain(func: ast.expr) -> str | None:
    return func.id if isinstance(func, ast.Name) else None


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
    """No allocation in `__init__`; elsewhere, each sized by stored figures only; no call of
    a plain function the check cannot see into (`pinned(shape, dtype)` may allocate)."""
    for method in node.body:
        if isinstance(method, ast.AsyncFunctionDef):
            return False
        if not isinstance(method, ast.FunctionDef):
            continue
        # (a call whose result is dropped, `transfer_kv_direct(...)`, gives the host nothing)
        dropped = {id(e.value) for e in walk.nodes(method) if isinstance(e, ast.Expr)}
        for call in walk.nodes(method):
            if isinstance(call, ast.Call) and id(call) not in dropped and _opaque_helper(call):
                return False
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


# what allocates a tensor whatever the receiver (`torch.empty`, `T.zeros` of `import torch as
# T`, `buf.new_empty(...)`, `torch.empty_like(buf)`, `np.zeros`)
_ALLOCATING = (
    ALLOCATORS
    | TENSOR_ALLOCATORS
    | {
        "new_tensor",
        "empty_like",
        "zeros_like",
        "ones_like",
        "full_like",
        "rand_like",
        "from_numpy",
        "frombuffer",
    }
)  # (not `arange`: indices, never storage)
# plain functions that never allocate a tensor the host keeps
_HARMLESS = frozenset(
    "int float str bool len range min max abs sum tuple list dict set frozenset sorted zip "
    "enumerate isinstance issubclass getattr hasattr setattr type super print repr divmod "
    "round map filter any all iter next id hash cls".split()
)


def _is_allocation(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _ALLOCATING
    )


def _opaque_helper(call: ast.Call) -> bool:
    """A call of a plain function (`pinned(shape, dtype)`), not a builtin nor an exception or
    class named in capitals (`ValueError(...)`, `Backing(...)`): what it allocates is unseen."""
    name = _plain(call.func)
    return name is not None and name not in _HARMLESS and not name.lstrip("_")[:1].isupper()


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
