"""Two pools one function builds from its parameters by different paths: composed siblings.

Disaggregated serving builds its prefill and decode pools in one place, each from the same
settings but not by the same expressions: `layout = Layout.for_prefill(s)` then
`PrefillPool(layout)` beside `DecodePool(s)`. Neither call passes what the other does, so
siblings.py's rule (the same argument texts) does not pair them; but both are computed from the
function's parameter `s`. Such a pair is evaluated by running that function (site_run.py): to
the first call for the device, to the second for the other pool, both from one stand-in for
`s` at each config point, so each pool sees the configuration the code derives for it. Only
syntax is read here; nothing engine-specific.
"""

from __future__ import annotations

import ast

import libcst as cst

from auditor.evaluation.matrix import parameter_names
from auditor.frontend import walk
from auditor.frontend.index import ClassInfo, ModuleInfo
from auditor.frontend.scope import code_of
from auditor.pairing.sites import ConstructionSite


def parameter_roots(function: ast.AST, nodes: list[ast.expr], own: str | None = None) -> set[str]:
    """The parameters of `function` the expressions are computed from, following the
    function's own assignments to local names (`s = settings or load()` reads `settings`);
    for a method, `own` names its object, whose attributes are roots (`self.cache_config`)."""
    args = function.args  # type: ignore[attr-defined]
    params = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
    assigned: dict[str, list[ast.expr]] = {}
    for node in walk.nodes(function):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                names = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
                for name in names:
                    if isinstance(name, ast.Name):
                        assigned.setdefault(name.id, []).append(node.value)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr)):
            if isinstance(node.target, ast.Name) and node.value is not None:
                assigned.setdefault(node.target.id, []).append(node.value)
    found: set[str] = set()
    seen: set[str] = set()
    pending = list(nodes)
    while pending:
        consumed: set[int] = set()
        for node in walk.nodes(pending.pop()):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                if node.value.id == own:
                    found.add(f"{own}.{node.attr}")
                    consumed.add(id(node.value))
            if not isinstance(node, ast.Name) or id(node) in consumed or node.id == own:
                continue
            if node.id in params:
                found.add(node.id)
            elif node.id in assigned and node.id not in seen:
                seen.add(node.id)
                pending.extend(assigned[node.id])
    return found


def root_object_paths(
    function: ast.AST,
    roots: frozenset[str],
    calls: list[tuple[dict[str, ast.expr], dict[str, str]]],
) -> tuple[tuple[str, str], ...]:
    """For each root parameter passed whole to a pool's object parameter (`GpuStore(cfg)`, `s
    = settings or load()` then `Pool(s)`), the path that pool reads the object's attributes
    under (`StoreConfig`): the stand-in then holds the very values the pools' own dimensions
    name. `calls`: each call's bound arguments and its class's object paths."""
    aliases: dict[str, str] = {}  # `s = settings or load()`: `s` is `settings`
    for node in walk.nodes(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
            options = value.values if isinstance(value, ast.BoolOp) else [value]
            named = [v.id for v in options if isinstance(v, ast.Name) and v.id in roots]
            if isinstance(target, ast.Name) and len(named) == 1:
                aliases[target.id] = named[0]
    found: dict[str, str] = {}
    for bound, objects in calls:
        for parameter, node in bound.items():
            path = objects.get(parameter)
            if path is None:
                continue
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                root = f"{node.value.id}.{node.attr}"  # a method's `self.store_config`
                if root in roots:
                    found.setdefault(root, path)
                continue
            if not isinstance(node, ast.Name):
                continue
            root = node.id if node.id in roots else aliases.get(node.id)
            if root is not None:
                found.setdefault(root, path)
    return tuple(sorted(found.items()))


def bound_nodes(call: ast.Call, cls: ClassInfo) -> dict[str, ast.expr] | None:
    """Constructor parameter -> the argument's node; None when `*`/`**` hide the binding."""
    names = parameter_names(cls)
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return None
    if len(call.args) > len(names):
        return None
    bound = dict(zip(names, call.args))
    bound.update((k.arg, k.value) for k in call.keywords if k.arg is not None)
    return bound


def shared_roots(
    function: ast.AST,
    a: ClassInfo,
    call_a: ast.Call,
    b: ClassInfo,
    call_b: ast.Call,
    sizing_a: set[str],
    sizing_b: set[str],
    own: str | None = None,
) -> frozenset[str]:
    """The function's parameters both pools' sizing arguments are computed from (empty when
    they share none, or a binding is hidden by `*`)."""
    found = []
    for cls, call, sizing in ((a, call_a, sizing_a), (b, call_b, sizing_b)):
        bound = bound_nodes(call, cls)
        if bound is None:
            bound = splat_bound(function, call, cls)
        if bound is None:
            return frozenset()
        found.append(parameter_roots(function, [n for p, n in bound.items() if p in sizing], own))
    return frozenset(found[0] & found[1])


def splat_bound(function: ast.AST, call: ast.Call, cls: ClassInfo) -> dict[str, ast.expr] | None:
    """`bound_nodes` of a call passing `**kwargs` of a local dict (`Pool(**host_kwargs)` after
    `host_kwargs = dict(shape_kwargs)`, `host_kwargs.update(size=n)`, `host_kwargs["dtype"] =
    d`): each key the function puts in the dict, with the last value it puts there. None where
    a key is not known (a dict merged from a parameter, a `*` splat, a key computed)."""
    if any(isinstance(a, ast.Starred) for a in call.args):
        return None
    names = parameter_names(cls)
    if len(call.args) > len(names):
        return None
    bound: dict[str, ast.expr] = dict(zip(names, call.args))
    for keyword in call.keywords:
        if keyword.arg is not None:
            bound[keyword.arg] = keyword.value
            continue
        entries = _dict_entries(function, keyword.value, set(), call.lineno)
        if entries is None:
            return None
        bound.update(entries)
    return bound


def _dict_entries(function: ast.AST, node: ast.expr, seen: set[str], before: int) -> dict | None:
    """The keys and values a local dict holds when a call on line `before` splats it (see
    above): what the function puts in it on earlier lines."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
        entries: dict[str, ast.expr] = {}
        for arg in node.args:  # `dict(shape_kwargs)`: a copy
            inner = _dict_entries(function, arg, seen, before)
            if inner is None:
                return None
            entries.update(inner)
        for keyword in node.keywords:
            if keyword.arg is None:
                inner = _dict_entries(function, keyword.value, seen, before)
                if inner is None:
                    return None
                entries.update(inner)
            else:
                entries[keyword.arg] = keyword.value
        return entries
    if isinstance(node, ast.Dict):
        entries = {}
        for key, value in zip(node.keys, node.values):
            if key is None:
                inner = _dict_entries(function, value, seen, before)
                if inner is None:
                    return None
                entries.update(inner)
            elif isinstance(key, ast.Constant) and isinstance(key.value, str):
                entries[key.value] = value
            else:
                return None
        return entries
    if not isinstance(node, ast.Name) or node.id in seen:
        return None
    seen = seen | {node.id}
    assigned = [
        n
        for n in walk.nodes(function)
        if isinstance(n, ast.Assign)
        and len(n.targets) == 1
        and isinstance(n.targets[0], ast.Name)
        and n.targets[0].id == node.id
    ]
    if len(assigned) != 1:
        return None
    entries = _dict_entries(function, assigned[0].value, seen, before)
    if entries is None:
        return None
    if assigned[0].lineno >= before:
        return None
    changes = sorted(
        (
            n
            for n in walk.nodes(function)
            if isinstance(n, (ast.Call, ast.Assign)) and n.lineno < before
        ),
        key=lambda n: (n.lineno, n.col_offset),
    )
    for n in changes:  # what the function puts in it after, in source order
        if (
            isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute)
            and n.func.attr == "update"
            and isinstance(n.func.value, ast.Name)
            and n.func.value.id == node.id
        ):
            for arg in n.args:
                inner = _dict_entries(function, arg, seen, before)
                if inner is None:
                    return None
                entries.update(inner)
            entries.update((k.arg, k.value) for k in n.keywords if k.arg is not None)
            if any(k.arg is None for k in n.keywords):
                return None
        elif isinstance(n, ast.Assign):
            for target in n.targets:
                if (
                    isinstance(target, ast.Subscript)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == node.id
                ):
                    key = target.slice
                    if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                        return None
                    entries[key.value] = n.value
    return entries


class _Calls(cst.CSTVisitor):
    """The calls of a module at given (line, column) positions."""

    def __init__(self, module: ModuleInfo, wanted: set[tuple[int, int]]) -> None:
        self.module, self.wanted = module, wanted
        self.found: dict[tuple[int, int], cst.Call] = {}

    def visit_Call(self, node: cst.Call) -> None:
        location = self.module.parsed.location(node)
        key = (location.line, location.column)
        if key in self.wanted:
            self.found.setdefault(key, node)


def composed_site(
    module: ModuleInfo,
    qualname: str,
    function: ast.AST,
    device: tuple[ClassInfo, ast.Call, str | None],
    other: tuple[ClassInfo, ast.Call],
    roots: frozenset[str],
    objects: tuple[dict[str, str], dict[str, str]] = ({}, {}),
    through: tuple[bool, bool] = (False, False),
) -> ConstructionSite | None:
    """The site of `other`'s call, run through the module-level function holding both calls,
    the device built at its own call there (`device`: class, call, the name its result is
    bound to), or the method of a class of the module holding both (run on an object its
    `__init__` builds from stand-ins, site_run.py). None for a call libcst does not see."""
    name = getattr(function, "name", "")
    owner = qualname.removeprefix(module.name + ".").removesuffix("." + name)
    if qualname != f"{module.name}.{name}" and (
        "." in owner or owner not in module.classes or owner == qualname
    ):
        return None
    (device_cls, device_call, bound), (host, host_call) = device, other
    wanted = {
        (device_call.lineno, device_call.col_offset + 1),
        (host_call.lineno, host_call.col_offset + 1),
    }
    visitor = _Calls(module, wanted)
    if qualname == f"{module.name}.{name}":
        holder = module.functions.get(name)
    else:
        holder = module.classes[owner].methods.get(name)
    if holder is not None:  # the calls are in the function: its syntax alone is visited
        holder.node.visit(visitor)
    if len(visitor.found) != 2:  # (another definition of that name: the module's)
        module.parsed.tree.visit(visitor)
    if len(visitor.found) != 2:
        return None
    # `through`: a call of a classmethod returning `cls(...)` (`Mirror.mirror_of(pool,
    # ratio)`): the run reaches that call through it, and it is reported here
    calls_made = []
    for call, cls, through_it in (
        (device_call, device_cls, through[0]),
        (host_call, host, through[1]),
    ):
        outer = visitor.found[(call.lineno, call.col_offset + 1)]
        inner = None
        if through_it:
            if not isinstance(outer.func, cst.Attribute):
                return None
            inner = classmethod_call(cls, outer.func.attr.value)
            if inner is None:
                return None
        calls_made.append((outer, inner))
    (device_outer, device_inner), (outer, inner) = calls_made
    cst_device = device_inner if device_inner is not None else device_outer
    cst_host = inner if inner is not None else outer
    names = parameter_names(host)
    arguments: dict[str, cst.BaseExpression] = {}
    for position, arg in enumerate(cst_host.args):
        if arg.keyword is not None:
            arguments[arg.keyword.value] = arg.value
        elif position < len(names):
            arguments[names[position]] = arg.value
    args = function.args  # type: ignore[attr-defined]
    parameters = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
    local = {
        n.id
        for n in walk.nodes(function)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    parsed = module.parsed
    calls = [
        (bound_nodes(device_call, device_cls) or {} if device_inner is None else {}, objects[0]),
        (bound_nodes(host_call, host) or {} if inner is None else {}, objects[1]),
    ]
    return ConstructionSite(
        host=host,
        module=module,
        call=cst_host,
        function=qualname,
        how=f"built beside {device_cls.name} in {qualname.rsplit('.', 1)[-1]}()",
        arguments=arguments,
        device_parameter=None,
        device_text=bound if bound is not None and bound.isidentifier() else None,
        path=module.path,
        location=parsed.location(outer),
        written=tuple(sorted((n, code_of(e)) for n, e in arguments.items())),
        local_names=frozenset(local | parameters),
        parameters=frozenset(parameters),
        device_call=cst_device,
        via_call=outer if inner is not None else None,
        device_via_call=device_outer if device_inner is not None else None,
        device_at=str(parsed.location(device_outer)),
        roots=roots,
        stand_ins=root_object_paths(function, roots, calls),
    )


def classmethod_call(cls: ClassInfo, name: str) -> cst.Call | None:
    """The `cls(...)` call a classmethod of the class ends by returning (`def mirror_of(cls,
    pool, ratio): ...; return cls(n, pool.n_layers, ...)`), whatever it computes before; None
    for another method."""
    method = cls.find_method(name)
    if method is None or "classmethod" not in method.decorators:
        return None
    params = method.node.params.params
    body = method.node.body
    if not params or not isinstance(body, cst.IndentedBlock) or not body.body:
        return None
    last = body.body[-1]
    if not isinstance(last, cst.SimpleStatementLine) or len(last.body) != 1:
        return None
    returned = last.body[0]
    if not isinstance(returned, cst.Return) or not isinstance(returned.value, cst.Call):
        return None
    call = returned.value
    first = params[0].name.value
    if not isinstance(call.func, cst.Name) or call.func.value != first:
        return None
    return call
