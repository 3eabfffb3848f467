"""A record parameter followed to the callers that pass it.

`build_mamba_host_pool(mamba_pool, pool_info)` builds its host from `pool_info.buffer_info`;
nothing in that function says which pool made `pool_info`. Its callers do: SGLang 0.5.23's
`build_hybrid_mamba_stack` unpacks `(mamba_info,) = mamba_pool.get_device_pool_infos()` and
passes `mamba_info` with `mamba_pool` itself. When every caller in the same module passes the
parameter as a value read off a pool it also passes (the same method chain, the same
parameter), the record is that chain on the function's own parameter. Syntax only; callers in
other modules are not searched (their text is not in the module's hash, which keys the cache).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst

from auditor.frontend.index import ModuleInfo, ProjectIndex
from auditor.frontend.scope import FunctionScope, LocalNames, NamesRead, code_of
from auditor.pairing.guards import FunctionWalk


@dataclass(frozen=True)
class CallersRecord:
    """What every caller passes for a record parameter, as an expression of another parameter."""

    parameter: str  # the record parameter (`pool_info`)
    device: str  # the function's parameter receiving the pool the record is read off
    value: str  # the record parameter as an expression of `device` (`mamba_pool.f()[0]`)
    callers: tuple[str, ...]  # the functions that call it, for the evidence

    def describe(self) -> str:
        where = ", ".join(f"{c}()" for c in self.callers)
        verb = "passes" if len(self.callers) == 1 else "pass"
        return f"{self.parameter} = {self.value}, as {where} {verb} it"


def record_root(node: cst.BaseExpression) -> str | None:
    """The name a record expression reads its attributes off (`pool_info.buffer_info`)."""
    while isinstance(node, (cst.Attribute, cst.Subscript)):
        node = node.value
    return node.value if isinstance(node, cst.Name) else None


def record_read_off_local(
    walk: FunctionWalk, record: cst.BaseExpression
) -> cst.BaseExpression | None:
    """`pool_info.buffer_info` after `(pool_info,) = mamba_pool.get_device_pool_infos()` in
    the same function (SGLang 0.5.22): the record as read off the pool,
    `mamba_pool.get_device_pool_infos()[0].buffer_info`; None if it is not that."""
    root = record_root(record)
    read = _read_off_pool(walk, root) if root is not None else None
    if read is None:
        return None
    return cst.parse_expression(read[1] + code_of(record)[len(root) :])


def record_from_callers(
    index: ProjectIndex, module: ModuleInfo, function: cst.FunctionDef, parameter: str
) -> CallersRecord | None:
    """The value every caller of `function` in `module` passes for `parameter`, when each reads
    it off a pool it passes for one same parameter of `function`; None otherwise."""
    params = function.params
    positional = [p.name.value for p in (*params.posonly_params, *params.params)]
    named = set(positional) | {p.name.value for p in params.kwonly_params}
    name = function.name.value
    found: set[tuple[str, str]] = set()
    callers: list[str] = []
    for caller in _module_functions(module.parsed.tree):
        if caller is function:
            continue
        calls = [c for c in _calls_named(caller, name)]
        if not calls:
            continue
        walk = _walk(index, module, caller)
        for call in calls:
            passed = _arguments(call, positional, named)
            if passed is None or parameter not in passed:
                return None
            answer = _read_off_passed_pool(walk, passed, parameter)
            if answer is None:
                return None
            found.add(answer)
        callers.append(caller.name.value)
    if len(found) != 1:
        return None
    ((device, value),) = found
    return CallersRecord(parameter, device, value, tuple(callers))


def _read_off_passed_pool(
    walk: FunctionWalk, passed: dict[str, cst.BaseExpression], parameter: str
) -> tuple[str, str] | None:
    """(the function's parameter given the pool, the record as an expression of it)."""
    argument = passed[parameter]
    read = _read_off_pool(walk, argument.value) if isinstance(argument, cst.Name) else None
    if read is None:
        return None
    receiver, text = read
    devices = [
        p
        for p, node in passed.items()
        if p != parameter and isinstance(node, cst.Name) and node.value == receiver
    ]
    if len(devices) != 1:
        return None
    return devices[0], devices[0] + text[len(receiver) :]


def _read_off_pool(walk: FunctionWalk, name: str) -> tuple[str, str] | None:
    """(the pool, the text) of what a local name holds when that is a method chain read off a
    pool with literal arguments (`(info,) = pool.f()`: `pool`, `pool.f()[0]`); None otherwise."""
    source = _source(walk, name)
    if source is None:
        return None
    chain, suffix = source
    receiver = _receiver(chain)
    if receiver is None or not _reads_only(chain, receiver):
        return None
    return receiver, code_of(chain) + suffix


def _source(walk: FunctionWalk, name: str) -> tuple[cst.BaseExpression, str] | None:
    """What a caller's local name holds: `(x,) = pool.f()` (the call and `[0]`), or the one
    value assigned to it."""
    unpacked = walk.unpacked.get(name, [])
    bindings = walk.assignments.get(name, [])
    if len(unpacked) == 1 and len(bindings) <= 1:
        call, position, _ = unpacked[0]
        return call, f"[{position}]"
    if len(bindings) == 1 and bindings[0].value is not None and not unpacked:
        return bindings[0].value, ""
    return None


def _receiver(node: cst.BaseExpression) -> str | None:
    """The name at the start of a method chain (`pool.f()[0].x`: `pool`), if it calls one."""
    called = False
    while True:
        if isinstance(node, (cst.Attribute, cst.Subscript)):
            node = node.value
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
            called, node = True, node.func.value
        else:
            return node.value if isinstance(node, cst.Name) and called else None


def _reads_only(node: cst.BaseExpression, receiver: str) -> bool:
    """Does the chain read no variable but the pool (its arguments are literals)?"""
    names = NamesRead()
    node.visit(names)
    return names.names <= {receiver}


def _arguments(
    call: cst.Call, positional: list[str], named: set[str]
) -> dict[str, cst.BaseExpression] | None:
    """The function's parameters a call passes; None for `*`/`**` or too many positionals."""
    passed: dict[str, cst.BaseExpression] = {}
    position = 0
    for arg in call.args:
        if arg.star:
            return None
        if arg.keyword is not None:
            if arg.keyword.value not in named:
                return None
            passed[arg.keyword.value] = arg.value
        elif position < len(positional):
            passed[positional[position]] = arg.value
            position += 1
        else:
            return None
    return passed


def _walk(index: ProjectIndex, module: ModuleInfo, function: cst.FunctionDef) -> FunctionWalk:
    names = LocalNames(module)
    function.body.visit(names)
    walk = FunctionWalk(FunctionScope(index, module, names.bound))
    walk.block(function.body.body, ())
    return walk


def _module_functions(node: cst.CSTNode) -> Iterator[cst.FunctionDef]:
    for child in node.children:
        if isinstance(child, cst.FunctionDef):
            yield child
        if isinstance(child, (cst.FunctionDef, cst.ClassDef, cst.IndentedBlock, cst.Module)):
            yield from _module_functions(child)
        elif isinstance(child, cst.BaseCompoundStatement):
            yield from _module_functions(child)


def _calls_named(function: cst.FunctionDef, name: str) -> list[cst.Call]:
    finder = _CallsNamed(name)
    function.body.visit(finder)
    return finder.calls


class _CallsNamed(cst.CSTVisitor):
    def __init__(self, name: str) -> None:
        self.name = name
        self.calls: list[cst.Call] = []

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name) and node.func.value == self.name:
            self.calls.append(node)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False  # a nested function is a caller of its own
