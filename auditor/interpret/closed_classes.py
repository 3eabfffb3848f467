"""Which attributes a class's own code can give its instances, when that is all they can have.

`getattr(settings, "quant_group", 64)` of a config object's stand-in (a dataclass of the tree,
`settings: Settings`) reads an attribute the point has no value for. When the class's code
never gives its instances that attribute (no field, class attribute, method or `self.x = ...`
in any class of its order) and nothing in it sets attributes by a computed name (`setattr(self,
name, v)`, `self.__dict__`, `__getattr__`), the object has none: the code's own fallback is
what it reads, as `cfg.get("k", d)` of a dict without the key gives `d`. A class with a base
outside the tree, or a decorator other than a dataclass's, may have anything: not decided.
"""

from __future__ import annotations

import ast
import textwrap
import weakref

from auditor.frontend.behaviour import instance_attributes
from auditor.frontend.index import ClassInfo
from auditor.frontend.parse import LateParseError

# names that make what an instance holds open: they read or set attributes by computed names
_OPEN_MEMBERS = frozenset({"__getattr__", "__getattribute__", "__setattr__", "__dict__"})
_PLAIN_DECORATORS = frozenset({"dataclass", "dataclasses.dataclass", "final", "typing.final"})

_KNOWN: weakref.WeakKeyDictionary[ClassInfo, frozenset[str] | None] = weakref.WeakKeyDictionary()


def lacks(klass: ClassInfo, name: str) -> bool:
    """True when no instance of `klass` can have attribute `name` (module docstring); False
    when it may, or when that cannot be told."""
    names = _attributes(klass)
    return names is not None and name not in names


def _attributes(klass: ClassInfo) -> frozenset[str] | None:
    """Every attribute the code of `klass`'s order gives its instances; None when open."""
    if klass in _KNOWN:
        return _KNOWN[klass]
    found: set[str] | None = set()
    if klass.has_opaque_base():
        found = None
    for each in klass.mro() if found is not None else ():
        node = _class_ast(each)
        if node is None or _open(node):
            found = None
            break
        found |= instance_attributes(node)  # type: ignore[operator]
    result = frozenset(found) if found is not None else None
    _KNOWN[klass] = result
    return result


def _class_ast(klass: ClassInfo) -> ast.ClassDef | None:
    try:
        text = textwrap.dedent(klass.module.parsed.code(klass.node))
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError, LateParseError):
        return None
    node = tree.body[0] if tree.body else None
    return node if isinstance(node, ast.ClassDef) else None


def _open(node: ast.ClassDef) -> bool:
    """Does the class set or read attributes by computed names, or let a decorator add some?"""
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if ast.unparse(target) not in _PLAIN_DECORATORS:
            return True
    for part in ast.walk(node):
        if isinstance(part, (ast.FunctionDef, ast.AsyncFunctionDef)) and part.name in _OPEN_MEMBERS:
            return True
        if isinstance(part, ast.Attribute) and part.attr == "__dict__":
            return True
        if isinstance(part, ast.Name) and part.id in ("setattr", "vars", "__dict__"):
            return True  # (any `setattr`: a constant name is rare, and said as `self.x =`)
    return False
