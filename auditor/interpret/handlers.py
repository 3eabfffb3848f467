"""Which `except` clause catches a refusal: a `raise` or failed lookup decided at a config point
is Python raising a known class (`KeyError`, `ValueError`); a `try` whose handlers name only
builtin exception classes is decided as Python decides it, so a handler that raises again still
refuses the point, and one that does not catch it lets the refusal through."""

from __future__ import annotations

import builtins

import libcst as cst

from auditor.frontend.index import dotted


def raised_class(exc: cst.BaseExpression | None) -> str | None:
    """The class a `raise` statement raises (`ValueError` of `raise ValueError(...)` or `raise
    errors.ValueError`), when it names one; None for a bare `raise` or an expression."""
    if isinstance(exc, cst.Call):
        exc = exc.func
    name = dotted(exc) if isinstance(exc, (cst.Name, cst.Attribute)) else None
    return name.rpartition(".")[2] if name else None


def _builtin_exception(name: str | None) -> type[BaseException] | None:
    found = getattr(builtins, name, None) if name else None
    return found if isinstance(found, type) and issubclass(found, BaseException) else None


def _names(node: cst.BaseExpression) -> list[str | None]:
    if isinstance(node, cst.Tuple):
        return [n for element in node.elements for n in _names(element.value)]
    name = dotted(node) if isinstance(node, (cst.Name, cst.Attribute)) else None
    return [name.rpartition(".")[2] if name else None]


def catching(handlers, raised: str | None) -> cst.ExceptHandler | None | bool:
    """The first handler catching `raised`; None when none does; False when that cannot be
    told (the class raised, or one a handler names, is not a builtin exception class: the
    tree's own classes, whose bases this does not follow)."""
    error = _builtin_exception(raised)
    if error is None:
        return False
    for handler in handlers:
        if handler.type is None:  # a bare `except:`
            return handler
        classes = [_builtin_exception(n) for n in _names(handler.type)]
        if any(c is None for c in classes):
            return False
        if any(issubclass(error, c) for c in classes):
            return handler
    return None
