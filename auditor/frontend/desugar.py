"""Spellings rewritten to the ones the behaviour reader follows: a comprehension, an attribute.

`list(map(alloc, itertools.repeat(shape, n)))`, `list(map(self._alloc, capacities))` and
`alloc = lambda shape: torch.empty(shape, ...)` allocate exactly as `[alloc(shape) for _ in
range(n)]`, `[self._alloc(c) for c in capacities]` and a local `def alloc(shape): return
...` do, `self.register_buffer("k", t)` (a torch module's buffer) sets `self.k = t`, and
`zeros(shape)` of `zeros = functools.partial(torch.zeros, device=d)` is `torch.zeros(shape,
device=d)`, `torch.Size([n, page, heads, dim])` is the list it is given, and
`getattr(cfg, "num_layers")` (no default) is `cfg.num_layers`. Pool
recognition (behaviour.py) reads comprehensions, local functions and attributes; these
rewrites let it read the other spellings as the same code, without a second set of rules. Only
recognition reads the rewritten copies: the interpreter runs the code as written (`map`,
`itertools.repeat` and `functools.partial` are modelled in interpret/library.py).
"""

from __future__ import annotations

import ast
import copy

_REPEAT = frozenset({"itertools.repeat", "repeat"})
_SIZE = frozenset({"torch.Size", "Size"})
_ITEM = "_desugar_item"


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base is not None else None
    return None


def _plain_lambda(node: ast.AST) -> bool:
    """A lambda of positional parameters only, without defaults."""
    if not isinstance(node, ast.Lambda):
        return False
    a = node.args
    return not (a.vararg or a.kwarg or a.kwonlyargs or a.defaults or a.posonlyargs)


def _mapped(node: ast.Call) -> ast.ListComp | None:
    """`map(f, items)` as `[f(item) for item in items]`; `map(f, repeat(x, n))` as `[f(x) for _
    in range(n)]`; a one-parameter lambda's body inlined. None for anything else."""
    if _dotted(node.func) != "map" or len(node.args) != 2 or node.keywords:
        return None
    function, items = node.args
    if isinstance(items, ast.Starred):
        return None
    item: ast.expr = ast.Name(_ITEM, ast.Load())
    if (
        isinstance(items, ast.Call)
        and _dotted(items.func) in _REPEAT
        and len(items.args) == 2
        and not items.keywords
    ):
        item = items.args[0]
        items = ast.Call(ast.Name("range", ast.Load()), [items.args[1]], [])
    if _plain_lambda(function) and len(function.args.args) == 1:
        name = function.args.args[0].arg
        element = _Renamed(name, item).visit(copy.deepcopy(function.body))
    else:
        element = ast.Call(function, [item], [])
    target = ast.Name(_ITEM, ast.Store())
    loop = ast.comprehension(target=target, iter=items, ifs=[], is_async=0)
    return ast.copy_location(ast.ListComp(element, [loop]), node)


class _Renamed(ast.NodeTransformer):
    """A lambda's parameter replaced by the item it is called on."""

    def __init__(self, name: str, value: ast.expr) -> None:
        self.name, self.value = name, value

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id == self.name and isinstance(node.ctx, ast.Load):
            return copy.deepcopy(self.value)
        return node

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        return node  # a lambda inside has parameters of its own


_PARTIAL = ("partial", "functools.partial")


def _partials(function: ast.AST) -> dict[str, ast.Call]:
    """The names a function binds once, to `functools.partial(torch.zeros, device=d)` of a
    function named by its dotted path, and never again (no other assignment, loop or `with`
    target, parameter of a function inside it): each call of one is that function's."""
    found: dict[str, ast.Call] = {}
    bindings: dict[str, int] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bindings[node.id] = bindings.get(node.id, 0) + 1
        elif isinstance(node, ast.arg):
            bindings[node.arg] = bindings.get(node.arg, 0) + 1
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
            if (
                isinstance(target, ast.Name)
                and isinstance(value, ast.Call)
                and _dotted(value.func) in _PARTIAL
                and value.args
                and _dotted(value.args[0]) is not None
                and not any(isinstance(a, ast.Starred) for a in value.args)
                and all(k.arg is not None for k in value.keywords)
            ):
                found[target.id] = value
    return {name: call for name, call in found.items() if bindings.get(name) == 1}


class _Desugared(ast.NodeTransformer):
    def __init__(self, partials: dict[str, ast.Call] | None = None) -> None:
        self.partials = partials or {}

    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        node = self.generic_visit(node)  # type: ignore[assignment]
        registered = registered_buffer(node)
        return registered if registered is not None else node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        node = self.generic_visit(node)  # type: ignore[assignment]
        # `list(map(...))`, `tuple(map(...))`: the list the comprehension makes
        if (
            _dotted(node.func) in ("list", "tuple")
            and len(node.args) == 1
            and not node.keywords
            and isinstance(node.args[0], ast.ListComp)
        ):
            return node.args[0]
        if isinstance(node.func, ast.Name) and node.func.id in self.partials:
            # `zeros(shape, dtype=d)` of `zeros = functools.partial(torch.zeros, device=dev)`
            given = self.partials[node.func.id]
            named = {k.arg for k in node.keywords}  # (the call's keywords win, as in Python)
            kept = [k for k in given.keywords if k.arg not in named]
            call = ast.Call(
                copy.deepcopy(given.args[0]),
                [*copy.deepcopy(given.args[1:]), *node.args],
                [*copy.deepcopy(kept), *node.keywords],
            )
            return ast.copy_location(call, node)
        if _sized(node):  # `torch.Size([pages, page, heads, dim])`: that shape
            return node.args[0]
        read = _attribute_read(node)
        if read is not None:  # `getattr(cfg, "num_hidden_layers")`: `cfg.num_hidden_layers`
            return read
        mapped = _mapped(node)
        return mapped if mapped is not None else node

    def visit_Assign(self, node: ast.Assign) -> ast.AST:
        node = self.generic_visit(node)  # type: ignore[assignment]
        if (
            len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and _plain_lambda(node.value)
        ):
            lam = node.value
            assert isinstance(lam, ast.Lambda)
            function = ast.FunctionDef(
                name=node.targets[0].id,
                args=lam.args,
                body=[ast.copy_location(ast.Return(lam.body), node)],
                decorator_list=[],
                returns=None,
                type_comment=None,
                type_params=[],
            )
            return ast.copy_location(function, node)
        return node


def _attribute_read(node: ast.Call) -> ast.Attribute | None:
    """`getattr(obj, "name")` of a named object as the attribute it reads (`obj.name`). Not
    `getattr(obj, "name", default)`: there the code's own fallback decides where the
    object's class never gives the attribute (closed_classes.py), not a sampled value."""
    if not (
        _dotted(node.func) == "getattr"
        and len(node.args) == 2
        and not node.keywords
        and _dotted(node.args[0]) is not None
        and isinstance(node.args[1], ast.Constant)
        and isinstance(node.args[1].value, str)
        and node.args[1].value.isidentifier()
    ):
        return None
    read = ast.Attribute(node.args[0], node.args[1].value, ast.Load())
    return ast.copy_location(read, node)


def registered_buffer(node: ast.AST) -> ast.Assign | None:
    """`self.register_buffer("conv_state", torch.zeros(...), persistent=False)` (a torch
    module's buffer) as `self.conv_state = torch.zeros(...)`, which is what it sets; also
    `super().register_buffer(...)` and `nn.Module.register_buffer(self, ...)`."""
    if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)):
        return None
    call = node.value
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr == "register_buffer"):
        return None
    args = list(call.args)
    receiver = func.value
    if isinstance(receiver, ast.Call) and _dotted(receiver.func) == "super":
        pass
    elif _dotted(receiver) in ("nn.Module", "torch.nn.Module", "Module"):
        # the unbound method: `self` is its first argument
        if not (args and isinstance(args[0], ast.Name) and args[0].id == "self"):
            return None
        args = args[1:]
    elif not (isinstance(receiver, ast.Name) and receiver.id == "self"):
        return None
    given = {k.arg: k.value for k in call.keywords if k.arg is not None}
    name = args[0] if args else given.get("name")
    value = args[1] if len(args) > 1 else given.get("tensor")
    # (torch refuses an empty name and a dotted one)
    if not (isinstance(name, ast.Constant) and isinstance(name.value, str)) or value is None:
        return None
    if not name.value.isidentifier():
        return None
    target = ast.Attribute(ast.Name("self", ast.Load()), name.value, ast.Store())
    return ast.copy_location(ast.Assign([target], value), node)


def _sized(node: ast.AST) -> bool:
    """`torch.Size(dims)` of one sequence: the same dimensions as `dims`."""
    return (
        isinstance(node, ast.Call)
        and _dotted(node.func) in _SIZE
        and len(node.args) == 1
        and not node.keywords
        and not isinstance(node.args[0], ast.Starred)
    )


def _has_sugar(function: ast.AST) -> bool:
    for node in ast.walk(function):
        if _sized(node):
            return True
        if isinstance(node, ast.Call) and _dotted(node.func) == "map":
            return True
        if isinstance(node, ast.Assign) and _plain_lambda(node.value):
            return True
        if registered_buffer(node) is not None:
            return True
        if isinstance(node, ast.Call) and _dotted(node.func) in _PARTIAL:
            return True
        if isinstance(node, ast.Call) and _attribute_read(node) is not None:
            return True
    return False


def desugared(function: ast.AST) -> ast.AST:
    """The function with `map` calls, lambdas bound to names and the rest rewritten (module docstring):
    a copy where there are any, the function itself otherwise."""
    if not _has_sugar(function):
        return function
    result = _Desugared(_partials(function)).visit(copy.deepcopy(function))
    return ast.fix_missing_locations(result)
