"""Which classes are device pools and host pools, and the buffers a pool allocates.

A device pool is a concrete class whose constructor takes a token count and a layer count (or
that allocates per layer and per token from its parameters, roles.py). A host pool takes a
device pool (or a record of its buffers); the catalog (catalog.py) keeps as hosts those that
allocate an attribute of a name a device pool also allocates (`buffer_names`), and the
strategies (strategies.py) pair them.
"""

from __future__ import annotations

import ast
import re

from auditor.evaluation.matrix import parameter_names
from auditor.evaluation.measure import looks_like_buffer
from auditor.evaluation.roles import RoleBook
from auditor.frontend import walk
from auditor.frontend.desugar import registered_buffer
from auditor.frontend.index import ClassInfo
from auditor.frontend.scope import class_node, cpython_tree
from auditor.settings import Settings


def is_host_pool(cls: ClassInfo, settings: Settings, book: RoleBook | None = None) -> bool:
    names = parameter_names(cls)
    if book is not None and id(cls) in book.hosts:
        return True
    return any(n in settings.device_pool_params for n in names) or is_record_host(cls, settings)


def is_record_host(cls: ClassInfo, settings: Settings) -> bool:
    """A host built from a record of the device pool's buffers (`buffer_info: MLABufferInfo`)
    rather than from the device pool itself."""
    names = parameter_names(cls)
    return not any(n in settings.device_pool_params for n in names) and any(
        n in settings.buffer_info_params for n in names
    )


def is_device_pool(cls: ClassInfo, settings: Settings, book: RoleBook | None = None) -> bool:
    """Named so by the pack (a token and a layer parameter), or allocating per layer and per
    token from its parameters (roles.py), and not a host."""
    if is_host_pool(cls, settings, book):
        return False
    names = parameter_names(cls)
    layers = settings.layer_names()
    if any(n in settings.token_params for n in names) and any(n in layers for n in names):
        return True
    return book is not None and book.inferred(cls) is not None


def buffer_names(
    cls: ClassInfo, trees: dict | None = None, counts: frozenset = frozenset()
) -> set[str]:
    """Attributes a class (its MRO) may hold tensors in: `self.x = <call>` (`torch.zeros(...)`,
    `self.init_kv_buffer()`, `alloc(...)`), `self.x = [... for ...]`, `self.x[k] = t`, and any
    `self.x_buffer`;
    `counts` (token and layer counts) excluded."""
    trees = {} if trees is None else trees
    names: set[str] = set()
    for klass in cls.mro():
        names |= _own_buffer_names(klass, trees)
    return names - counts


_ALLOCATING = (ast.Call, ast.ListComp, ast.List, ast.GeneratorExp)


def _paired(targets: list[ast.expr], value: ast.expr | None) -> list[tuple[ast.expr, ast.AST]]:
    """Each target with the value it receives: `self.k, self.v = [], []` element by element."""
    found: list[tuple[ast.expr, ast.AST]] = []
    for target in targets:
        if (
            isinstance(target, ast.Tuple)
            and isinstance(value, ast.Tuple)
            and len(target.elts) == len(value.elts)
        ):
            found.extend(zip(target.elts, value.elts))
        else:
            found.append((target, value if value is not None else ast.Constant(None)))
    return found


# `self.dtype = to_torch(cfg.dtype)`, `self.device = ...`: a call's result, never storage (a
# config object whose `dtype` a class reads is no pool for that)
_NOT_STORAGE = re.compile(r"(?:^|_)(?:dtype|device)$")


def _own_buffer_names(cls: ClassInfo, trees: dict) -> set[str]:
    """Tensor-like attributes the class's own methods set, read from CPython's syntax tree
    (a libcst visit of every method of every pool costs seconds on a whole engine)."""
    key = ("buffers", id(cls))
    if key in trees:
        return trees[key]
    tree = cpython_tree(cls.module, trees)
    node = class_node(tree, cls) if tree is not None else None
    names: set[str] = set()
    for item in walk.nodes(node) if node is not None else ():
        if isinstance(item, (ast.Assign, ast.AnnAssign)):
            targets = item.targets if isinstance(item, ast.Assign) else [item.target]
            for target, value in _paired(targets, item.value):
                # `self.kv[f"layer{i}"] = t`: an item of it set, per layer or by name
                allocating = isinstance(value, _ALLOCATING) or (
                    isinstance(target, ast.Subscript) and isinstance(value, ast.Name)
                )
                for part in walk.nodes(target):
                    if (
                        isinstance(part, ast.Attribute)
                        and isinstance(part.value, ast.Name)
                        and part.value.id == "self"
                        and (allocating or looks_like_buffer(part.attr))
                        and not _NOT_STORAGE.search(part.attr)
                    ):
                        names.add(part.attr)
        elif (
            isinstance(item, ast.Call)
            and isinstance(item.func, ast.Name)
            and item.func.id == "setattr"
            and len(item.args) >= 3
            and isinstance(item.args[0], ast.Name)
            and item.args[0].id == "self"
            and isinstance(item.args[1], ast.Constant)
            and isinstance(item.args[1].value, str)
            and (isinstance(item.args[2], _ALLOCATING) or looks_like_buffer(item.args[1].value))
        ):
            names.add(item.args[1].value)
        elif isinstance(item, ast.Expr) and (buffer := registered_buffer(item)) is not None:
            # `self.register_buffer("conv_state", t)`: a torch module's buffer
            if not (isinstance(buffer.value, ast.Constant) and buffer.value.value is None):
                names.add(buffer.targets[0].attr)  # type: ignore[attr-defined]
    trees[key] = names
    return names
