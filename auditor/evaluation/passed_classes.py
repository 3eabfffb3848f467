"""The class of an untyped config-object parameter, from what the code builds the pool with.

`def __init__(self, size, page_size, dtype, cfg, ...)` with no annotation on `cfg`: the audit
samples `cfg.kv_cache_dim` and `cfg.latent_dim` as numbers of their own, though both are
properties of one class (`kv_lora_rank + qk_rope_head_dim`, `kv_lora_rank`), so a host that
reads the other one cannot be compared with its pool. Where every call that constructs the
pool in the audited tree passes, for that parameter, an instance of one class (a local built
as `cfg = cfg or MLAConfig()`, `cfg = MLAConfig(...)`, `if cfg is None: cfg = MLAConfig()`, or
a parameter annotated with the class), the parameter is read as annotated with it: its
properties run on the stand-in, its fields keep their defaults. A call that does not pass it
says nothing; a call passing anything else (a caller's parameter, a `*` argument, a value of
no known class), or calls that disagree, leave it untyped.
"""

from __future__ import annotations

import ast

from auditor.frontend import walk
from auditor.frontend.index import ClassInfo, ProjectIndex
from auditor.frontend.parse import ParsedModule
from auditor.frontend.scope import file_tree

_TYPING = frozenset({"Optional", "Union", "None", "typing"})


def passed_class(
    index: ProjectIndex,
    parsed: list[ParsedModule],
    trees: dict,
    cls: ClassInfo,
    name: str,
    position: int | None,
) -> ClassInfo | None:
    """The one class of the objects the code passes `cls`'s parameter `name` (at `position`
    among the positional parameters after `self`), or None."""
    needle = cls.name.encode()
    found: set[int] = set()
    classes: list[ClassInfo] = []
    for module in parsed:
        data = module.data
        if data is None:
            try:
                data = module.source.path.read_bytes()
            except OSError:
                continue
        if needle + b"(" not in data:
            continue
        tree = file_tree(module, trees)
        if tree is None:
            continue
        for function in walk.nodes(tree):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for call in _calls_of(function, cls.name):
                argument = _argument(call, name, position)
                if argument is None:
                    continue  # not passed: the parameter's default
                if isinstance(argument, ast.Name):
                    text = class_bound(function, argument.id)
                else:  # `RowPool(n, OtherShape())`
                    text = _built(argument, "")
                if text is None:
                    return None  # a call the code does not say the class of: nothing said
                info = index.module_for(module)
                klass = index.resolve_static(info, text) if info is not None else None
                if not isinstance(klass, ClassInfo):
                    return None  # (a class outside the tree, or not one: nothing said)
                if id(klass) not in found:
                    found.add(id(klass))
                    classes.append(klass)
    return classes[0] if len(classes) == 1 else None


def _calls_of(function: ast.AST, name: str) -> list[ast.Call]:
    return [
        node
        for node in walk.nodes(function)
        if isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Name) and node.func.id == name)
            or (isinstance(node.func, ast.Attribute) and node.func.attr == name)
        )
    ]


def _argument(call: ast.Call, name: str, position: int | None) -> ast.expr | None:
    """What the call passes the parameter (None: not passed); a `*` or `**` that may hold
    it is an argument of no known class."""
    for keyword in call.keywords:
        if keyword.arg == name:
            return keyword.value
    if position is not None:  # (None: keyword-only)
        for argument in call.args[: position + 1]:
            if isinstance(argument, ast.Starred):
                return argument
        if position < len(call.args):
            return call.args[position]
    return next((k.value for k in call.keywords if k.arg is None), None)  # `**kwargs`


def class_bound(function: ast.AST, name: str) -> str | None:
    """The class a function's local `name` holds an instance of: its parameter's annotation,
    or `name = Cls(...)`, `name = name or Cls()`, `name = Cls() if name is None else name`,
    `if name is None: name = Cls()` among its statements; None when anything else binds it."""
    args = function.args  # type: ignore[attr-defined]
    found: set[str] = set()
    for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
        if arg.arg == name and arg.annotation is not None:
            words = [w for w in _words(arg.annotation) if w not in _TYPING]
            if len(words) == 1:
                found.add(words[0])
    for node in walk.nodes(function):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node is not function:
            continue
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            built = _built(node.value, name)
            if built is None:
                return None
            found.add(built)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.With)):
            targets = [getattr(node, "target", None)] + [
                i.optional_vars for i in getattr(node, "items", ())
            ]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return None
    return found.pop() if len(found) == 1 else None


def _built(value: ast.expr, name: str) -> str | None:
    """`Cls(...)`, `name or Cls(...)`, `Cls(...) if name is None else name`: the class's text."""
    if (
        isinstance(value, ast.BoolOp)
        and isinstance(value.op, ast.Or)
        and len(value.values) == 2
        and isinstance(value.values[0], ast.Name)
        and value.values[0].id == name
    ):
        value = value.values[1]
    elif (
        isinstance(value, ast.IfExp)
        and isinstance(value.orelse, ast.Name)
        and value.orelse.id == name
    ):
        value = value.body
    if isinstance(value, ast.Call):
        text = ast.unparse(value.func)
        if all(part.isidentifier() for part in text.split(".")):
            return text
    return None


def _words(node: ast.AST) -> list[str]:
    words = []
    for part in ast.walk(node):
        if isinstance(part, ast.Name):
            words.append(part.id)
        elif isinstance(part, ast.Constant) and isinstance(part.value, str):
            words.append(part.value)
    return words
