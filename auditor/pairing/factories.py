"""Host classes chosen by functions: factories (`get_mha_host_pool_cls(info)`) and helpers
returning `(cls, record, kwargs)`, read from their `return` statements. Which class the code
returns at a config point is decided when the site is run (evaluation/site_run.py)."""

from __future__ import annotations

import libcst as cst

from auditor.evaluation.site_run import never_built
from auditor.frontend.index import ClassInfo, FunctionInfo, ModuleInfo, dotted
from auditor.frontend.scope import FunctionScope, LocalNames
from auditor.interpret.memos import MEMOS
from auditor.interpret.values import Unknown
from auditor.pairing.guards import FunctionWalk


def returned_classes(
    finder, scope: FunctionScope, call: cst.Call, position: int | None, depth: int
) -> list[tuple[ClassInfo, str]]:
    """Host classes a function of the tree may return (element `position` of a returned
    tuple): a factory (`get_mha_host_pool_cls(info)`) or a helper returning
    `(cls, record, kwargs)`, followed through calls a few levels deep. Which one the code
    returns at a config point is decided when the site is evaluated (site_run.py)."""
    if depth > 4 or dotted(call.func) is None:
        return []
    function = scope.resolve(call.func)
    if not isinstance(function, FunctionInfo):
        return []
    needles = frozenset(finder.names)
    local = LocalNames(function.module, needles)
    function.node.body.visit(local)
    inner = FunctionScope(finder.index, function.module, local.bound)
    found: list[tuple[ClassInfo, str]] = []
    for value in returned_values(function.node):
        if position is not None:
            if not isinstance(value, cst.Tuple) or position >= len(value.elements):
                continue
            value = value.elements[position].value
        if isinstance(value, cst.Call):
            for host, how in returned_classes(finder, inner, value, None, depth + 1):
                found.append((host, how))
            continue
        target = inner.resolve(value) if dotted(value) else None
        if isinstance(target, ClassInfo) and target in finder.hosts:
            found.append((target, f"class returned by {function.name}()"))
    return found


class _Returns(cst.CSTVisitor):
    """The values of a function's `return` statements (not those of nested definitions)."""

    def __init__(self) -> None:
        self.values: list[cst.BaseExpression] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_Return(self, node: cst.Return) -> None:
        if node.value is not None:
            self.values.append(node.value)


def returned_values(function: cst.FunctionDef) -> list[cst.BaseExpression]:
    """What the function returns; once per function (the factory search asks in rounds)."""
    table = MEMOS.returns
    found = table.get(id(function))
    if found is None or found[0] is not function:  # the node kept: its id is not reused
        returns = _Returns()
        function.body.visit(returns)
        if len(table) >= MEMOS.limits["returns"]:
            table.clear()
        found = table[id(function)] = (function, returns.values)
    return list(found[1])


def unpacked_source(walk: FunctionWalk, node: cst.BaseExpression) -> cst.BaseExpression | None:
    """A record unpacked from a helper's result (`cls, info, kw = _mha_host_inputs(pool)`) is
    read off the pool the helper is given: its first argument, when that is a plain name."""
    if isinstance(node, cst.Name) and len(walk.unpacked.get(node.value, [])) == 1:
        call = walk.unpacked[node.value][0][0]
        if call.args and call.args[0].keyword is None and isinstance(call.args[0].value, cst.Name):
            return call.args[0].value
    return None


def factories_in(module: ModuleInfo, names: set[str]) -> set[str]:
    """Module-level functions that may return one of `names` (a host class, or the call of a
    function that returns one), also as an element of a returned tuple."""
    tree = module.parsed.tree
    found = set()
    for statement in tree.body:
        if not isinstance(statement, cst.FunctionDef):
            continue
        for value in returned_values(statement):
            parts = value.elements if isinstance(value, cst.Tuple) else [value]
            for part in parts:
                node = part.value if isinstance(part, cst.Element) else part
                if isinstance(node, cst.Call):
                    node = node.func
                name = dotted(node)
                if name is not None and name.rsplit(".", 1)[-1] in names:
                    found.add(statement.name.value)
    return found


def drop_never_built(evaluated: list, pools) -> tuple[list, list[Unknown]]:
    """The evaluated pairs without those never built in the matrix (removed from the catalog
    too), and why each removed one is not a pair."""
    never = []
    for pair, evaluation in evaluated:
        if not never_built(evaluation):
            continue
        chosen = sorted(
            {
                p.infeasible.chosen
                for p in evaluation.points
                if p.infeasible is not None and p.infeasible.chosen is not None
            }
        )
        never.append(
            Unknown(
                f"{pair.host.name} <- {pair.device.name} at {pair.site.where()} is never built "
                f"in the config matrix: {' or '.join(chosen)} at every point the device is built",
                pair.site.location,
            )
        )
    kept = [(p, e) for p, e in evaluated if not never_built(e)]
    ids = {id(p) for p, _ in kept}
    pools.pairs = [p for p in pools.pairs if id(p) in ids]
    return kept, never
