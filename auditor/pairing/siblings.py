"""Two device pools one function builds from the same configuration: disaggregated siblings.

Prefill and decode pools of disaggregated serving (and any two pools one side writes and the
other reads) are not host and device: neither takes the other. They must still agree byte for
byte, buffer by buffer: the decode side receives what the prefill side ships. The code says
they belong together where one function builds both, on one path (not in exclusive branches),
from the same arguments: `PrefillKVPool(cfg, dev0), DecodeKVPool(cfg, dev1)`. Such a pair is
compared as any other, the later-built pool in the host's place, each built on its own at the
same config point (evaluate.py pins what only one of them takes to its default, as the call
leaves it). Only syntax is read here; nothing engine-specific.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator

import libcst as cst

from auditor.evaluation import buffer_roles
from auditor.evaluation.matrix import parameter_names
from auditor.evaluation.roles import RoleBook
from auditor.frontend import walk
from auditor.frontend.index import (
    ClassInfo,
    FunctionInfo,
    ModuleInfo,
    ProjectIndex,
    absolute_module,
)
from auditor.frontend.parse import ParsedModule
from auditor.frontend.scope import class_node, cpython_tree, def_node, file_tree
from auditor.location import Location
from auditor.pairing.composed import (
    bound_nodes,
    classmethod_call,
    composed_site,
    parameter_roots,
    shared_roots,
    splat_bound,
)
from auditor.pairing.evidence import SIBLING, Evidence, Pair
from auditor.pairing.factories import returned_values
from auditor.pairing.sites import candidate_modules, module_bytes

RUN_THROUGH = "run through "  # how: a classmethod building the class, run (composed.py)
RETURNING = " returning cls(...)"  # how: a classmethod only returning `cls(...)`, read
CHOSEN = "chosen by "  # how: a class a function returns into a local (`pool_cls = pick()`), run
REGISTERED = "registered as "  # how: a class looked up by its registry key (`pool_for("x")(...)`)

# A call, the device class it builds, the branches it lies in (id of the `if`, arm), and the
# name its result is bound to (`cache = Pool(...)`) if any, and how it builds the class
Call = tuple[ast.Call, ClassInfo, tuple[tuple[int, int], ...], str | None, str]


def sibling_pairs(
    index: ProjectIndex,
    parsed: list[ParsedModule],
    devices: list[ClassInfo],
    hosts: list[ClassInfo],
    pairs: list[Pair],
    book: RoleBook,
    trees: dict,
) -> list[Pair]:
    """Pairs of device pools built beside each other from the same arguments (see above)."""
    if len(devices) < 2:
        return []
    by_name: dict[str, list[ClassInfo]] = {}
    for device in devices:
        by_name.setdefault(device.name, []).append(device)
    taken = {frozenset((id(p.host), id(p.device))) for p in pairs}
    host_ids = {id(h) for h in hosts}
    found: list[Pair] = []

    decorated = _registered(devices)
    registrars = _registrars(devices)
    otherwise = (
        _registered_otherwise(set(decorated), registrars, parsed, trees) if decorated else set()
    )
    registered = {k: (c, "a decorator") for k, c in decorated.items() if k not in otherwise}
    keys = {name: [] for name in registered}

    def builds_two(module: ParsedModule) -> bool:
        tree = file_tree(module, trees)
        if tree is None:
            return False
        found = {**by_name, **keys}
        if _may_build_two(tree, found):
            return True
        own = _dict_keys(tree, by_name)  # (a module-level dict of them)
        return bool(own) and _may_build_two(tree, {**found, **own})

    needles = set(by_name) | {f"{q}{key}{q}" for key in registered for q in "'\""}
    for module in candidate_modules(index, parsed, needles, builds_two):
        tree = cpython_tree(module, trees)
        if tree is None:
            continue
        in_module = {**registered, **_dict_registry(index, module, tree, by_name)}
        helpers = _dict_helpers(tree)
        for qualname, function in _functions(tree, module.name):
            together: dict[tuple[int, int], set[int]] = {}
            calls = list(
                _device_calls(index, module, function, by_name, trees, in_module, together)
            )
            for one, two in itertools.combinations(calls, 2):
                (first, a, where_a, name_a, _), (second, b, where_b, _, how) = one, two
                key = frozenset((id(a), id(b)))
                if a is b or first is second or key in taken or host_ids & {id(a), id(b)}:
                    continue  # (one call choosing between classes builds one of them)
                bound_a = together.get((id(first), id(a)))
                bound_b = together.get((id(second), id(b)))
                if bound_a is not None and bound_b is not None and not bound_a & bound_b:
                    continue  # (`a_cls, b_cls = A, B` in one arm: A with B, not with D)
                if _exclusive(where_a, where_b) or not _storages_meet(book, a, b):
                    continue
                if _layers_apart(book, a, first, b, second, function):
                    continue  # (a target's cache and its draft's: two models, no mirror)
                derived = _derived(a, name_a, trees)
                shared = defaulted = None
                if not any(c[4].startswith((RUN_THROUGH, CHOSEN)) for c in (one, two)):
                    # (a classmethod's call binds its parameters, not the class's; a class
                    # chosen by a function is known only where the function runs)
                    shared = same_arguments(book, a, first, b, second, derived)
                    if shared is None:
                        defaulted = same_defaults(book, a, first, b, second)
                if shared is not None and _reads_other(b, second, name_a, derived):
                    shared = None  # `Host(cfg, gpu.dtype)`: as the function computes it
                inside = shared is not None and (
                    _given_inside(book, b, second, a, first, function)
                    or _given_inside(book, a, first, b, second, function)
                )
                if shared is not None and not inside:
                    inside = _shared_from_function(book, module, a, first, function, shared)
                if shared is not None and (_passed_device_only(book, a, first, shared) or inside):
                    # the device is also given what the other is not (`tp_size=cfg.tp_size`),
                    # or one is given an object built from what the other is given: built as
                    # the function builds both, where it can be run
                    site = _composed(book, module, qualname, function, one, two, inside, helpers)
                    if site is not None:
                        taken.add(key)
                        found.append(Pair(b, a, _composed_evidence(site, a, first), site))
                        continue
                if defaulted:
                    shared = defaulted
                elif shared is None:
                    site = _composed(book, module, qualname, function, one, two, False, helpers)
                    if site is not None:
                        taken.add(key)
                        found.append(Pair(b, a, _composed_evidence(site, a, first), site))
                    continue
                taken.add(key)
                built_from = [text for text in shared if text in derived]
                note = (
                    f"built from {a.name}'s attributes ({', '.join(built_from)})"
                    if built_from
                    else f"built beside {a.name} (line {first.lineno}) from the same "
                    f"{'defaults' if defaulted else 'arguments'} ({', '.join(shared)})"
                )
                given = site_defaults(function, _bound(second, b) or {}, shared)
                # what each alone is given by a parameter of the function (`token_page_size=
                # cpu_page_size`), under a name the other does not take
                own_b = _bound(second, b) or {}
                own_a = _bound(first, a) or {}
                for mine, other in ((own_b, own_a), (own_a, own_b)):
                    alone = {n: t for n, t in mine.items() if n not in other and t not in shared}
                    for name, value in site_defaults(function, alone, list(alone.values())).items():
                        given.setdefault(name, value)
                if given:
                    book.given[(id(a), id(b))] = given
                    said = ", ".join(f"{n}={v!r}" for n, v in given.items())
                    note += f"; {said} as {qualname.rsplit('.', 1)[-1]}()'s defaults give"
                evidence = Evidence(
                    SIBLING,
                    location=Location(module.path, second.lineno, second.col_offset + 1),
                    function=qualname,
                    how=how,
                    arguments=tuple(shared),
                    note=note,
                )
                found.append(Pair(b, a, evidence))
    return found


def site_defaults(function: ast.AST, bound: dict[str, str], shared: list[str]) -> dict:
    """Constructor parameter -> the literal default of the building function's parameter
    passed for it (`def setup_kv(tp_ranks=4)` ... `Wire(..., tp_ranks, ...)`): the value the
    code builds both pools with when its caller says nothing. Evaluation gives it to a
    parameter nothing else gives a value (evaluate.py), instead of samples."""
    args = getattr(function, "args", None)
    if args is None:
        return {}
    positional = [*args.posonlyargs, *args.args]
    defaults = dict(
        zip([a.arg for a in positional[len(positional) - len(args.defaults) :]], args.defaults)
    )
    defaults.update((a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None)
    given = {}
    for name, text in bound.items():
        if text not in shared or text not in defaults:
            continue
        try:
            value = ast.literal_eval(defaults[text])
        except (ValueError, SyntaxError, TypeError):
            continue
        if isinstance(value, (bool, int, float, str)):
            given[name] = value
    return given


def _reads_other(b: ClassInfo, call: ast.Call, name: str | None, derived: dict) -> bool:
    """Does the second call pass something read off the first pool (`gpu.dtype`) that the
    first does not keep from a parameter of that name (`_derived`)? Then only running the
    function gives it."""
    bound = _bound(call, b)
    if name is None or bound is None:
        return False
    return any(text.startswith(name + ".") and text not in derived for text in bound.values())


def _composed(
    book: RoleBook,
    module: ModuleInfo,
    qualname: str,
    function,
    one,
    two,
    local: bool = False,
    helpers: dict | None = None,
):
    """The site of the second call when both pools are built from the function's parameters
    by different paths (composed.py), for direct calls or classmethods building the pools
    (run through: what the function passes them may all size their pool); else None.
    `local`: they are built from the function's locals (`dtype = CacheDType("fp8")` given to
    one and inside the other's config object): run as it is, even from no parameter."""
    (first, a, _, name_a, how_a), (second, b, _, _, how_b) = one, two
    # a classmethod building it (`Mirror.mirror_of(pool, ratio)`), run through
    through_a, through_b = (
        how.startswith(RUN_THROUGH) or how.endswith(RETURNING) for how in (how_a, how_b)
    )
    direct_a, direct_b = (
        how == "direct call" or how.startswith((CHOSEN, REGISTERED)) for how in (how_a, how_b)
    )
    if not (direct_a or through_a) or not (direct_b or through_b):
        return None
    rest = qualname.removeprefix(module.name + ".").split(".")
    method = len(rest) == 2 and rest[0] in module.classes and function.args.args
    own = function.args.args[0].arg if method else None
    if through_a or through_b:  # what a classmethod is given: all of it may size its pool
        found = []
        for call, cls, through in ((first, a, through_a), (second, b, through_b)):
            if through:
                given = [*call.args, *(k.value for k in call.keywords)]
            else:
                sizing = _sizing(book, cls)
                given = [n for p, n in (bound_nodes(call, cls) or {}).items() if p in sizing]
            found.append(parameter_roots(function, given, own))
        roots = frozenset(found[0] & found[1])
    else:
        sizing_a, sizing_b = _sizing(book, a), _sizing(book, b)
        written = [_unsplatted(call, helpers or {}) for call in (first, second)]
        roots = shared_roots(function, a, written[0], b, written[1], sizing_a, sizing_b, own)
    if not roots and not local:
        return None
    # (built from locals: the objects the function builds are given, no stand-in for them)
    objects = ({}, {}) if local and not roots else (book.objects(a), book.objects(b))
    through = (through_a, through_b)
    return composed_site(
        module, qualname, function, (a, first, name_a), (b, second), roots, objects, through
    )


def _layers_apart(
    book: RoleBook, a: ClassInfo, call_a: ast.Call, b: ClassInfo, call_b, function: ast.AST
) -> bool:
    """Are the two pools given their layer counts as different attributes of one object
    (`cfg.num_layers` to one, `cfg.draft_layers` to the other)? Then they hold the caches of
    two models (a target's and its draft's), and neither mirrors the other. (One attribute of
    two objects, `opts.n_layers` and `slots.n_layers`, may be one count read off the pool.)"""
    given = []
    for cls, call in ((a, call_a), (b, call_b)):
        bound = bound_nodes(call, cls) or splat_bound(function, call, cls) or {}
        layer = next((bound[p] for p in book.layers(cls) if p in bound), None)
        if not isinstance(layer, ast.Attribute):
            return False
        given.append(layer)
    one, two = given
    return ast.unparse(one.value) == ast.unparse(two.value) and one.attr != two.attr


def _dict_helpers(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    """The module-level functions whose body is one `return dict(k=v, ...)` (or a dict
    display with text keys): what `Pool(**_pool_kwargs(cfg, n, device))` passes is written
    out in them."""
    found = {}
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef) or len(node.body) != 1:
            continue
        value = node.body[0].value if isinstance(node.body[0], ast.Return) else None
        if _dict_keywords(value) is not None:
            found[node.name] = node
    return found


def _dict_keywords(value: ast.expr | None) -> list[ast.keyword] | None:
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "dict"
        and not value.args
        and all(k.arg is not None for k in value.keywords)
    ):
        return list(value.keywords)
    if isinstance(value, ast.Dict) and all(
        isinstance(k, ast.Constant) and isinstance(k.value, str) for k in value.keys
    ):
        return [ast.keyword(arg=k.value, value=v) for k, v in zip(value.keys, value.values)]  # type: ignore[union-attr]
    return None


def _unsplatted(call: ast.Call, helpers: dict[str, ast.FunctionDef]) -> ast.Call:
    """`Pool(**_pool_kwargs(gpu_cfg, n, device))` written out as `Pool(num_blocks=n,
    block_size=gpu_cfg.block_size, ...)`, the helper's parameters replaced by what the call
    gives it, so that which argument sizes the pool is known; the call itself where a `*` or
    another `**` hides it (or the helper takes `*args`, `**kwargs` or is not given one of its
    parameters)."""
    keywords: list[ast.keyword] = []
    for keyword in call.keywords:
        inner = keyword.value
        helper = (
            helpers.get(inner.func.id)
            if keyword.arg is None
            and isinstance(inner, ast.Call)
            and isinstance(inner.func, ast.Name)
            else None
        )
        if keyword.arg is not None:
            keywords.append(keyword)
            continue
        if helper is None or helper.args.vararg or helper.args.kwarg or helper.args.kwonlyargs:
            return call
        names = [a.arg for a in [*helper.args.posonlyargs, *helper.args.args]]
        if any(isinstance(a, ast.Starred) for a in inner.args) or len(inner.args) > len(names):
            return call
        given = dict(zip(names, inner.args))
        for passed in inner.keywords:
            if passed.arg is None or passed.arg not in names:
                return call
            given[passed.arg] = passed.value
        if set(given) != set(names):  # (a default left: not written out)
            return call
        written = _Written(given).visit(_copy(helper.body[0].value))  # type: ignore[attr-defined]
        keywords.extend(_dict_keywords(written) or [])
    return ast.Call(func=call.func, args=call.args, keywords=keywords)


class _Written(ast.NodeTransformer):
    """A helper's parameters replaced by the expressions a call gives them."""

    def __init__(self, given: dict[str, ast.expr]) -> None:
        self.given = given

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return self.given.get(node.id, node)


def _copy(node: ast.AST) -> ast.AST:
    return ast.parse(ast.unparse(node), mode="eval").body


def _composed_evidence(site, a: ClassInfo, first: ast.Call) -> Evidence:
    roots = ", ".join(sorted(site.roots))
    return Evidence(
        SIBLING,
        location=site.location,
        function=site.function,
        how=site.how,
        arguments=tuple(sorted(site.arguments)),
        note=f"built beside {a.name} (line {first.lineno}) from the same parameters ({roots}) "
        f"by other paths: both as {site.function.rsplit('.', 1)[-1]}() computes them",
    )


def _functions(tree: ast.Module, prefix: str) -> Iterator[tuple[str, ast.AST]]:
    """Every function and method, nested ones included, with its qualified name."""
    stack: list[tuple[ast.AST, str]] = [(tree, prefix)]
    while stack:
        node, name = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield f"{name}.{child.name}", child
                stack.append((child, f"{name}.{child.name}"))
            elif isinstance(child, ast.ClassDef):
                stack.append((child, f"{name}.{child.name}"))
            elif not isinstance(child, ast.Lambda):
                stack.append((child, name))


def _may_build_two(tree: ast.Module, by_name: dict) -> bool:
    """Whether some function calls device classes by name at least twice (what
    `_device_calls` can find two of), read off CPython's tree before libcst parses the module:
    most modules naming a pool class only test or annotate it."""
    tables = {
        holder
        for _, item, holder in _dict_items(tree)
        if (item.id if isinstance(item, ast.Name) else item.attr) in by_name
    }
    imported = {  # (or an imported one: another module's dict, maybe)
        alias.asname or alias.name
        for n in tree.body
        if isinstance(n, ast.ImportFrom)
        for alias in n.names
        if alias.name.isupper()
    }
    for node in walk.nodes(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        inside = walk.nodes(node)  # one walk for its imports and its calls
        local = {
            alias.asname or alias.name: alias.name
            for n in inside
            if isinstance(n, ast.ImportFrom)
            for alias in n.names
        }
        picked = {  # `pool_cls = select_pool_cls(dtype)`: maybe a class, called below
            n.targets[0].id
            for n in inside
            if isinstance(n, ast.Assign)
            and len(n.targets) == 1
            and isinstance(n.targets[0], ast.Name)
            and isinstance(n.value, (ast.Call, ast.IfExp))  # (or `a_cls if x else b_cls`)
        }
        picked |= {  # `bank_cls = HOST_BANKS[mode]`: a table's class, called below
            n.targets[0].id
            for n in inside
            if isinstance(n, ast.Assign)
            and len(n.targets) == 1
            and isinstance(n.targets[0], ast.Name)
            and isinstance(n.value, ast.Subscript)
            and isinstance(n.value.value, ast.Name)
            and (n.value.value.id in tables or n.value.value.id in imported)
        }
        for n in inside:  # `store_cls, stash_cls = LatentStore, LatentStash`
            if isinstance(n, ast.Assign):
                for target in n.targets:
                    for name, item in _names_bound(target, n.value):
                        said = item.id if isinstance(item, ast.Name) else getattr(item, "attr", "")
                        if local.get(said, said) in by_name:
                            picked.add(name)
        calls = 0
        for n in inside:
            if isinstance(n, ast.Call):
                func = n.func
                if isinstance(func, ast.Name) and func.id in picked:
                    calls += 1
                    if calls == 2:
                        return True
                    continue
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if isinstance(func, (ast.Call, ast.Subscript)):  # `pool_for("decode")(cfg)`
                    name = _registry_key(func)
                if (  # `CACHE_TYPES[mode](cfg)`: a module-level dict of device classes
                    isinstance(func, ast.Subscript)
                    and isinstance(func.value, ast.Name)
                    and (func.value.id in tables or func.value.id in imported)
                ):
                    calls += 1
                    if calls == 2:
                        return True
                    continue
                owner = getattr(func, "value", None)  # `Spill.from_device(...)`
                if isinstance(owner, ast.Name) and local.get(owner.id, owner.id) in by_name:
                    name = owner.id
                if name is not None and local.get(name, name) in by_name:
                    calls += 1
                    if calls == 2:
                        return True
    return False


def _device_calls(
    index: ProjectIndex,
    module: ModuleInfo,
    function: ast.AST,
    by_name: dict,
    trees: dict,
    registered: dict[str, tuple[ClassInfo, str]] | None = None,
    together: dict[tuple[int, int], set[int]] | None = None,
) -> Iterator[Call]:
    """The calls of the function's own body (not of functions defined in it) that build a
    device pool class by its name, imported at module level or in the function, directly or
    through a classmethod of the class that returns `cls(...)` (`Spill.from_device(cache)`:
    yielded as that `cls(...)` call, with the site's arguments in place of its parameters).
    `together` gets, for a call of a name bound to a class in each branch, the statements
    binding it to each class (keyed by the call's id and the class's)."""
    local: dict[str, tuple[str, str]] = {}  # `from .prefill_pool import PrefillKVPool`
    bound: dict[int, str] = {}  # id of a call -> the name its result is assigned to
    picked: dict[str, ast.expr] = {}  # `pool_cls = select_pool_cls(dtype)`: the function
    tuples = _local_tuples(function)  # `dims = (layers, heads, dim)`, passed as `*dims`
    for node in walk.nodes(function):
        if isinstance(node, ast.ImportFrom):
            source = absolute_module(module, node.level, node.module)
            for alias in node.names:
                local[alias.asname or alias.name] = (source, alias.name)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, (ast.Name, ast.Attribute)):
                bound[id(node.value)] = ast.unparse(target)
            if isinstance(target, ast.Name) and isinstance(node.value, ast.Call):
                picked[target.id] = node.value.func
    chosen = {
        name: (ast.unparse(func) + "()", classes)
        for name, func in picked.items()
        if (classes := _factory_classes(index, module, func, local, by_name))
    }
    for node in walk.nodes(function):  # `pool_cls = get_pool_cls("decode")`: registered
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id not in chosen
            and isinstance(node.value, ast.Call)
            and (key := _registry_key(node.value)) is not None
            and key in (registered or {})
        ):
            chosen[node.targets[0].id] = (ast.unparse(node.value), [(registered or {})[key][0]])
    # `store_cls, stash_cls = LatentStore, LatentStash` in one arm, other classes in another:
    # a name every binding of which is a device class (which one, the run says)
    named: dict[str, list] = {}  # name -> (expression or None, id of the statement)
    for node in walk.nodes(function):
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.With)):
            targets = node.targets if isinstance(node, ast.Assign) else [_target_of(node)]
            values = [node.value] if isinstance(node, ast.Assign) else [None]
            for target, value in zip(targets, values * len(targets)):
                for name, item in _names_bound(target, value):
                    named.setdefault(name, []).append((item, id(node)))
        elif isinstance(node, ast.arguments):  # a parameter: given, not a class of the tree
            for argument in [*node.posonlyargs, *node.args, *node.kwonlyargs]:
                named.setdefault(argument.arg, []).append((None, id(node)))
    # every binding of each name, whatever binds it (a walrus, `except ... as`, `del`, an
    # import, `global`): a name bound otherwise than by the assignments above is no choice
    stores: dict[str, int] = {}
    for node in walk.nodes(function):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            stores[node.id] = stores.get(node.id, 0) + 1
        elif isinstance(node, (ast.alias, ast.ExceptHandler, ast.Global, ast.Nonlocal)):
            for bound_name in _other_bindings(node):
                stores[bound_name] = stores.get(bound_name, 0) + 2  # (never equal below)
    branch_bound: dict[str, dict[int, set[int]]] = {}  # name -> class -> its statements
    for name, items in named.items():
        if name in chosen or name in picked or len(items) < 2:
            continue
        if stores.get(name, 0) != sum(1 for item, _ in items if item is not None):
            continue
        classes = [
            _device_class(index, module, item, local, by_name) if item is not None else None
            for item, _ in items
        ]
        if None not in classes and len(set(map(id, classes))) > 1:
            unique = list({id(c): c for c in classes}.values())
            chosen[name] = (f"{name} (bound in each branch)", unique)
            branch_bound[name] = {}
            for cls, (_, statement) in zip(classes, items):
                branch_bound[name].setdefault(id(cls), set()).add(statement)  # type: ignore[arg-type]
    for node in walk.nodes(function):  # `manager_cls = Int8Pool if int8 else Pool`
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.IfExp)
        ):
            arms = [node.value.body, node.value.orelse]
            classes = [_device_class(index, module, arm, local, by_name) for arm in arms]
            if all(c is not None for c in classes) and classes[0] is not classes[1]:
                chosen[node.targets[0].id] = (ast.unparse(node.value), classes)

    tree = cpython_tree(module, trees)
    tables: dict[str, list[ClassInfo]] = {}  # `CACHE_TYPES = {"fp16": Cache, "q4": CacheQ4}`
    for _, item, holder in _dict_items(tree) if tree is not None else ():
        found = _device_class(index, module, item, local, by_name)
        if found is not None and found not in tables.setdefault(holder, []):
            tables[holder].append(found)
    # such a dict of another module, imported (`from .rings import DEVICE_RINGS`): only the
    # names the function subscripts (`DEVICE_RINGS[mode]`) are looked up
    subscripted = {
        node.value.id
        for node in walk.nodes(function)
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
    }
    for name, (source, original) in _imported(module, tree, function).items():
        if name in tables or name not in subscripted:
            continue
        other = index.find_module(source, module)
        other_tree = cpython_tree(other, trees) if other is not None else None
        for _, item, holder in _dict_items(other_tree) if other_tree is not None else ():
            found = _device_class(index, other, item, {}, by_name) if holder == original else None
            if found is not None and found not in tables.setdefault(name, []):
                tables[name].append(found)

    for node in walk.nodes(function):  # `bank_cls = HOST_BANKS[mode]`, then `bank_cls(...)`
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Subscript)
            and isinstance(node.value.value, ast.Name)
            and tables.get(node.value.value.id)
            and node.targets[0].id not in chosen
            and len(named.get(node.targets[0].id, [])) == 1
        ):
            chosen[node.targets[0].id] = (ast.unparse(node.value), tables[node.value.value.id])

    def visit(node: ast.AST, where: tuple) -> Iterator[Call]:
        if isinstance(node, ast.Call):
            cls = _device_class(index, module, node.func, local, by_name)
            key = _registry_key(node.func)
            table = (  # `CACHE_TYPES[mode](config, ...)`: one of its classes, the run says
                node.func.value.id
                if isinstance(node.func, ast.Subscript)
                and isinstance(node.func.value, ast.Name)
                and key is None
                else None
            )
            if cls is not None:
                yield _spread(node, tuples), cls, where, bound.get(id(node)), "direct call"
            elif table is not None and tables.get(table):
                call = _spread(node, tuples)
                for each in tables[table]:
                    how = f"{CHOSEN}{ast.unparse(node.func)}"
                    yield call, each, where, bound.get(id(node)), how
            elif isinstance(node.func, ast.Name) and node.func.id in chosen:
                factory, classes = chosen[node.func.id]
                call = _spread(node, tuples)
                for each in classes:  # which one, the run says (OtherHost where another)
                    if together is not None and node.func.id in branch_bound:
                        together[(id(call), id(each))] = branch_bound[node.func.id][id(each)]
                    yield call, each, where, bound.get(id(node)), f"{CHOSEN}{factory}"
            elif key is not None and key in (registered or {}):
                cls, by = (registered or {})[key]
                how = f"{REGISTERED}{key!r} ({cls.name}, by {by})"
                yield node, cls, where, bound.get(id(node)), how
            elif isinstance(node.func, ast.Attribute):
                cls = _device_class(index, module, node.func.value, local, by_name)
                built = _through_classmethod(cls, node, trees) if cls is not None else None
                if built is not None:
                    how = f"{cls.name}.{node.func.attr}(){RETURNING}"
                    yield built, cls, where, bound.get(id(node)), how
                elif cls is not None and classmethod_call(cls, node.func.attr) is not None:
                    how = f"{RUN_THROUGH}{cls.name}.{node.func.attr}()"
                    yield node, cls, where, bound.get(id(node)), how
        if isinstance(node, ast.If):
            yield from visit(node.test, where)
            for arm, body in enumerate((node.body, node.orelse)):
                for child in body:
                    yield from visit(child, (*where, (id(node), arm)))
            return
        if isinstance(node, ast.IfExp):
            yield from visit(node.test, where)
            for arm, child in enumerate((node.body, node.orelse)):
                yield from visit(child, (*where, (id(node), arm)))
            return
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if not isinstance(child, ast.Lambda):
                    yield from visit(child, where)

    for statement in function.body:  # type: ignore[attr-defined]
        yield from visit(statement, ())


def _imported(module: ModuleInfo, tree: ast.Module | None, function: ast.AST) -> dict:
    """Names bound by `from x import Name` at module level or in the function, each with
    (absolute module, name there)."""
    found: dict[str, tuple[str, str]] = {}
    statements = [*(tree.body if tree is not None else []), *walk.nodes(function)]
    for node in statements:
        if isinstance(node, ast.ImportFrom):
            source = absolute_module(module, node.level, node.module)
            for alias in node.names:
                found[alias.asname or alias.name] = (source, alias.name)
    return found


def _other_bindings(node: ast.AST) -> list[str]:
    if isinstance(node, ast.alias):
        return [(node.asname or node.name).split(".")[0]]
    if isinstance(node, ast.ExceptHandler):
        return [node.name] if node.name else []
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return list(node.names)
    return []


def _target_of(node: ast.AST) -> ast.expr | None:
    if isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For)):
        return node.target
    return None  # (`with ... as x`: bound to what the context gives, never a class here)


def _names_bound(target: ast.expr | None, value: ast.expr | None) -> list:
    """(name, the expression it is bound to, or None for anything but a plain name or
    attribute) for each name `target = value` binds, element-wise for a tuple of the same
    length (`a, b = A, B`)."""
    if isinstance(target, ast.Name):
        plain = isinstance(value, (ast.Name, ast.Attribute))
        return [(target.id, value if plain else None)]
    if isinstance(target, (ast.Tuple, ast.List)):
        paired = (
            isinstance(value, (ast.Tuple, ast.List))
            and len(value.elts) == len(target.elts)
            and not any(isinstance(e, ast.Starred) for e in [*target.elts, *value.elts])
        )
        found = []
        for i, element in enumerate(target.elts):
            found.extend(_names_bound(element, value.elts[i] if paired else None))  # type: ignore[union-attr]
        return found
    if isinstance(target, ast.Starred):
        return _names_bound(target.value, None)
    return []


def _local_tuples(function: ast.AST) -> dict[str, ast.Tuple]:
    """The function's names bound once, to a tuple written out (`dims = (layers, heads,
    dim)`), and never bound again anywhere in it (a parameter, a loop, `with` or comprehension
    target, a function inside it); nor is any name the tuple reads bound twice, unless only
    by statements of the function before the tuple's own (`cfg = cfg or Config()`)."""
    bindings: dict[str, int] = {}
    found: dict[str, ast.Tuple] = {}
    assigned: dict[str, ast.Assign] = {}
    for node in walk.nodes(function):
        names: list[str] = []
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names = [node.id]
        elif isinstance(node, ast.arg):
            names = [node.arg]
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names = list(node.names)
        elif isinstance(node, ast.alias):
            names = [(node.asname or node.name).split(".")[0]]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [node.name] if node is not function else []
        for name in names:
            bindings[name] = bindings.get(name, 0) + 1
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Tuple)
            and not any(isinstance(e, ast.Starred) for e in node.value.elts)
        ):
            found[node.targets[0].id] = node.value
            assigned[node.targets[0].id] = node
    # where each name is bound among the function's own statements (a parameter: before all;
    # any other binding, `for`, `with`, `import`, a nested def, is counted nowhere: not settled)
    position: dict[str, list[int]] = {}
    arguments = getattr(function, "args", None)
    if isinstance(arguments, ast.arguments):
        every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
        every += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
        for argument in every:
            position.setdefault(argument.arg, []).append(-1)
    body = getattr(function, "body", [])
    top = {id(statement): i for i, statement in enumerate(body)}
    for i, statement in enumerate(body):
        for node in walk.nodes(statement):
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                position.setdefault(node.id, []).append(i)

    def settled(name: str, tuple_at: int | None) -> bool:
        """Bound once, or (`cfg = cfg or Default()` before `dims = (cfg.a, cfg.b)`) only
        by statements before the tuple's own, which the function runs once, in order."""
        if bindings.get(name, 0) <= 1:
            return True
        places = position.get(name, [])
        return tuple_at is not None and len(places) == bindings[name] and max(places) < tuple_at

    return {
        name: value
        for name, value in found.items()
        if bindings.get(name) == 1
        and all(
            settled(n.id, top.get(id(assigned.get(name))))
            for n in walk.nodes(value)
            if isinstance(n, ast.Name)
        )
    }


def _spread(call: ast.Call, tuples: dict[str, ast.Tuple]) -> ast.Call:
    """`Pool(*dims, dtype=d)` with `dims` a tuple the function writes out, as `Pool(layers,
    heads, dim, dtype=d)` (a copy at the same place); the call itself otherwise."""
    if not any(
        isinstance(a, ast.Starred) and isinstance(a.value, ast.Name) and a.value.id in tuples
        for a in call.args
    ):
        return call
    args: list[ast.expr] = []
    for argument in call.args:
        if isinstance(argument, ast.Starred) and isinstance(argument.value, ast.Name):
            spread = tuples.get(argument.value.id)
            if spread is not None:
                args.extend(spread.elts)
                continue
        args.append(argument)
    return ast.copy_location(ast.Call(call.func, args, call.keywords), call)


def _factory_classes(
    index: ProjectIndex, module: ModuleInfo, func: ast.expr, local: dict, by_name: dict
) -> list[ClassInfo]:
    """The device classes a function of the tree returns by name (`def select_pool_cls(d):
    if d == "int8": return Int8KVPool; return DenseKVPool`), each once; [] for another
    function or one returning anything else."""
    if not isinstance(func, ast.Name):
        return []
    if func.id in local:
        source, attr = local[func.id]
        found = index.resolve_import(source, attr, 0, module)
    else:
        found = index.resolve_static(module, func.id)
    if not isinstance(found, FunctionInfo):
        return []
    classes: list[ClassInfo] = []
    for value in returned_values(found.node):
        if not isinstance(value, (cst.Name, cst.Attribute)):
            return []
        cls = index.resolve_static(found.module, found.module.parsed.code(value).strip())
        if not isinstance(cls, ClassInfo) or cls not in by_name.get(cls.name, []):
            return []
        if cls not in classes:
            classes.append(cls)
    return classes


def _device_class(
    index: ProjectIndex, module: ModuleInfo, func: ast.expr, local: dict, by_name: dict
) -> ClassInfo | None:
    name = func.id if isinstance(func, ast.Name) else None
    if isinstance(func, ast.Attribute):
        name = func.attr
    candidates = by_name.get(local.get(name, ("", name))[1] if name else "", [])
    if not candidates:
        return None
    if isinstance(func, ast.Name) and func.id in local:
        source, attr = local[func.id]
        found = index.resolve_import(source, attr, 0, module)
    else:
        found = index.resolve_static(module, ast.unparse(func))
    return found if isinstance(found, ClassInfo) and found in candidates else None


def _registered(devices: list[ClassInfo]) -> dict[str, ClassInfo]:
    """Device classes a decorator registers under a string (`@register_pool("decode")`,
    `@POOLS.register("decode")`), by that string, where one class alone has it."""
    found: dict[str, list[ClassInfo]] = {}
    for device in devices:
        for decorator in device.node.decorators:
            call = decorator.decorator
            if not isinstance(call, cst.Call) or not call.args:
                continue
            first = call.args[0].value
            if isinstance(first, cst.SimpleString) and call.args[0].keyword is None:
                key = first.evaluated_value
                if isinstance(key, str):
                    found.setdefault(key, []).append(device)
    return {key: classes[0] for key, classes in found.items() if len(classes) == 1}


def _registrars(devices: list[ClassInfo]) -> set[str]:
    """The last names of the functions whose decorator calls register device classes
    (`register_pool` of `@register_pool("decode")`, `register` of `@POOLS.register(...)`)."""
    found = set()
    for device in devices:
        for decorator in device.node.decorators:
            call = decorator.decorator
            if isinstance(call, cst.Call) and isinstance(call.func, (cst.Name, cst.Attribute)):
                func = call.func
                found.add(func.value if isinstance(func, cst.Name) else func.attr.value)
    return found


def _last_name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else None


def _registered_otherwise(
    keys: set[str], registrars: set[str], parsed: list[ParsedModule], trees: dict
) -> set[str]:
    """The keys a class is also registered under at some module's top level by other means
    than a class decorator: the registering function called there (`register_pool("decode")(
    DecodeV2)`, `POOLS.register("decode", DecodeV2)`), or a class stored under the key
    (`_POOLS["decode"] = DecodeV2`). Which class a lookup of them gives depends on the order
    modules run, so it is not decided (one byte search of every file, then CPython's tree of
    those naming one)."""
    needles = {key: (f'"{key}"'.encode(), f"'{key}'".encode()) for key in keys}
    found: set[str] = set()
    for module in parsed:
        data = module_bytes(module)
        if data is None:
            continue
        named = {k for k, (one, two) in needles.items() if one in data or two in data}
        tree = file_tree(module, trees) if named - found else None
        for statement in tree.body if tree is not None else ():
            places: list[ast.expr] = []
            if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
                call = statement.value  # `register_pool("k")(Cls)` or `POOLS.register("k", C)`
                inner = call.func if isinstance(call.func, ast.Call) else call
                if _last_name(inner.func) in registrars:
                    places = inner.args[:1]
            elif isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Name):
                places = [t.slice for t in statement.targets if isinstance(t, ast.Subscript)]
            found |= {
                place.value
                for place in places
                if isinstance(place, ast.Constant) and place.value in named
            }
    return found


def _dict_items(tree: ast.Module) -> Iterator[tuple[str, ast.Name | ast.Attribute, str]]:
    """(string, class expression, the dict's name) of each module-level dict mapping strings to names
    (`_ARENAS = {"gpu": GpuArena, "swap": SwapArena}`, read by `arena_class("gpu")` or
    `_ARENAS["gpu"]`)."""
    for node in tree.body:
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        if isinstance(value, ast.Dict):
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            for key, item in zip(value.keys, value.values):
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    if isinstance(item, (ast.Name, ast.Attribute)):
                        yield key.value, item, ast.unparse(target)


def _dict_keys(tree: ast.Module, by_name: dict) -> dict[str, list]:
    """The strings a module-level dict maps to a device class's name (syntax alone)."""
    return {
        key: by_name[name]
        for key, item, _ in _dict_items(tree)
        if (name := item.id if isinstance(item, ast.Name) else item.attr) in by_name
    }


def _dict_registry(
    index: ProjectIndex, module: ModuleInfo, tree: ast.Module, by_name: dict
) -> dict[str, tuple[ClassInfo, str]]:
    """Device classes a module-level dict maps strings to (_dict_items), by that string, with
    how it names them (`the dict _ARENAS`)."""
    found: dict[str, tuple[ClassInfo, str]] = {}
    for key, item, holder in _dict_items(tree):
        cls = _device_class(index, module, item, {}, by_name)
        if cls is not None:
            found[key] = (cls, f"the dict {holder}")
    return found


def _registry_key(func: ast.expr) -> str | None:
    """The string a class is looked up by in a registry: `pool_for("decode")`,
    `POOLS["decode"]`, `registry.get("decode")` called; None for anything else."""
    if isinstance(func, ast.Subscript):
        key = func.slice
    elif isinstance(func, ast.Call) and len(func.args) == 1 and not func.keywords:
        key = func.args[0]
    else:
        return None
    return key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None


def _through_classmethod(cls: ClassInfo, site: ast.Call, trees: dict) -> ast.Call | None:
    """The `cls(...)` call a classmethod of the class returns (its body that one return),
    its parameters replaced by what the site passes them, as
    if the site had written it; None when it is not such a method or `*` hides the binding."""
    method = cls.find_method(site.func.attr)  # type: ignore[attr-defined]
    if method is None or "classmethod" not in method.decorators:
        return None
    function = _method_node(cls, site.func.attr, trees)  # type: ignore[attr-defined]
    if function is None or len(function.args.args) < 1 or function.args.vararg:
        return None
    *body, last = function.body
    if not isinstance(last, ast.Return) or not isinstance(last.value, ast.Call):
        return None
    first = function.args.args[0].arg
    inner = last.value
    if not isinstance(inner.func, ast.Name) or inner.func.id != first:
        return None
    if body or any(isinstance(a, ast.Starred) for a in site.args):
        return None  # statements before it: what it builds depends on more
    params = [a.arg for a in function.args.args[1:]] + [a.arg for a in function.args.kwonlyargs]
    if len(site.args) > len(function.args.args) - 1:
        return None
    given: dict[str, ast.expr] = dict(zip(params, site.args))
    for keyword in site.keywords:
        if keyword.arg is None or keyword.arg not in params:
            return None
        given[keyword.arg] = keyword.value
    replaced = _Replace(given).visit(
        ast.Call(func=site.func.value, args=inner.args, keywords=inner.keywords)  # type: ignore[attr-defined]
    )
    return ast.copy_location(replaced, site)


class _Replace(ast.NodeTransformer):
    """Names of a function's parameters replaced by the expressions a call passes them."""

    def __init__(self, given: dict[str, ast.expr]) -> None:
        self.given = given

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return self.given.get(node.id, node)


def _method_node(cls: ClassInfo, name: str, trees: dict) -> ast.FunctionDef | None:
    """CPython's tree of the method `name` the class resolves (its MRO), from the shared
    cache of module trees."""
    method = cls.find_method(name)
    if method is None or method.owner is None:
        return None
    tree = cpython_tree(method.module, trees)
    klass = class_node(tree, method.owner) if tree is not None else None
    return def_node(klass.body, name) if klass is not None else None


def _derived(cls: ClassInfo, name: str | None, trees: dict) -> dict[str, str]:
    """`cache.<attribute>` -> the constructor parameter the pool keeps under that attribute
    (`self.head_dim = head_dim`), for a pool bound to `cache`: another pool built from these
    attributes is given what this one was built with."""
    if name is None:
        return {}
    function = _method_node(cls, "__init__", trees)
    if function is None:
        return {}
    params = {a.arg for a in function.args.args[1:] + function.args.kwonlyargs}
    kept: dict[str, str] = {}
    for node in walk.nodes(function):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target, value = node.targets[0], node.value
        if (
            isinstance(target, ast.Attribute)
            and isinstance(target.value, ast.Name)
            and target.value.id == "self"
            and isinstance(value, ast.Name)
            and value.id in params
        ):
            kept[f"{name}.{target.attr}"] = value.id
    return kept


def _exclusive(a: tuple, b: tuple) -> bool:
    """Do the two calls lie in different arms of one `if` (or conditional expression)?"""
    arms = dict(a)
    return any(branch in arms and arms[branch] != arm for branch, arm in b)


def _storages_meet(book: RoleBook, a: ClassInfo, b: ClassInfo) -> bool:
    """Do the two pools hold a buffer of one name, one buffer each (`gpu_cache` beside
    `cpu_cache`: compared as the one storage each side holds), or buffers whose names say they
    hold the same, one to one (`k_pages`, `v_pages` beside `draft_k`, `draft_v`: buffer_roles),
    or the whole cache in one beside its K and V in two (`kv` beside `k_cache`, `v_cache`)?"""
    held_a, held_b = _allocated(book, a), _allocated(book, b)
    if held_a & held_b or len(held_a) == len(held_b) == 1:
        return True
    for run, other, cls in ((a, held_b, b), (b, held_a, a)):
        if _named_at_run(book, run) and _quoted_near(book, run, other, cls.module):
            return True  # (`setattr(self, name, ...)` over a plan's keys, which say a name
            # the other pool allocates: the run names them, and the run is compared)
    if _named_at_run(book, a) and _named_at_run(book, b) and _planned_by_base(book, a, b):
        return True  # (both over the names their common base plans: the run names them)
    if buffer_roles.matching(sorted(held_a), sorted(held_b)) is not None:
        return True
    # one stacked `kv` beside `k_cache`, `v_cache`
    return any(
        len(one) == 1 and buffer_roles.kept_whole(next(iter(one)), sorted(other))
        for one, other in ((held_a, held_b), (held_b, held_a))
    )


def _planned_by_base(book: RoleBook, a: ClassInfo, b: ClassInfo) -> bool:
    """Do two pools naming their storages at run time take the names from the base they
    share (`BUFFER_NAMES = ("k_data", "v_data")` beside the `buffer_names` both loop over),
    neither writing names of its own (a KV pool's `{"k_cache": ...}` beside a state pool's
    `{"conv_state": ...}`, each given to the base's allocator: storages of their own)?"""
    shared = next((k for k in a.mro()[1:] if any(k is m for m in b.mro()[1:])), None)
    if shared is None:
        return False
    texts = []
    for cls in (shared, a, b):
        tree = cpython_tree(cls.module, book.trees)
        node = class_node(tree, cls) if tree is not None else None
        if node is None:
            return False
        texts.append(_plan_texts(node))
    return bool(texts[0]) and not texts[1] and not texts[2]


def _named_at_run(book: RoleBook, cls: ClassInfo) -> bool:
    """Does the pool name some of its storages only at run time (`setattr(self, name, ...)`)?"""
    facts = book.facts(cls)
    return facts is not None and facts.named_at_run


def _quoted_near(book: RoleBook, cls: ClassInfo, names: set[str], apart: ModuleInfo) -> bool:
    """Is one of `names` written as a string in the class's module or a module of the tree it
    imports from (the plan whose keys a `setattr` loop names storages by), the other pool's
    own module (`apart`) aside: its names are written there whatever the plan says?"""
    modules = [cls.module]
    for source, attr in cls.module.imports.values():
        for name in (source, f"{source}.{attr}" if attr else source):
            found = book.index.find_module(name, cls.module)
            if found is not None and found not in modules:
                modules.append(found)
    quoted = {f"{q}{n}{q}".encode() for n in names for q in "'\""}
    for module in modules:
        if module is apart:
            continue
        data = module_bytes(module.parsed)
        if data is None or not any(q in data for q in quoted):
            continue  # (bytes first: most modules say none of them)
        tree = cpython_tree(module, book.trees)
        if tree is not None and names & _plan_texts(tree):
            return True
    return False


def _plan_texts(tree: ast.AST) -> set[str]:
    """The texts a module writes as a dict's keys or a list's, tuple's or set's items (a
    plan's names), not in its docstrings or messages."""
    found: set[str] = set()
    for node in walk.nodes(tree):
        if isinstance(node, ast.Dict):
            items = [k for k in node.keys if k is not None]
        elif isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            items = node.elts
        else:
            continue
        found |= {
            i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)
        }
    return found


def _allocated(book: RoleBook, cls: ClassInfo) -> set[str]:
    """The storages a pool allocates; a flat region carved into others is theirs, not one."""
    facts = book.facts(cls)
    if facts is None:
        return set()
    carved = set(facts.allocated) - facts.regions
    return carved if carved else set(facts.allocated)


def same_arguments(
    book: RoleBook,
    a: ClassInfo,
    call_a: ast.Call,
    b: ClassInfo,
    call_b: ast.Call,
    derived: dict[str, str] | None = None,
) -> list[str] | None:
    """The argument texts both calls pass for what sizes either pool, when every parameter
    that sizes a buffer of either (token and layer counts aside: bytes are per token per
    layer) is passed the same text by both calls, or by neither; else None. At least one such
    argument must be shared: the configuration they are built from. `derived` names what the
    first pool keeps of its parameters (`cache.head_dim` -> `head_dim`, `_derived`): the second
    call passing it for that parameter passes what the first call did."""
    derived = derived or {}
    bound_a, bound_b = _bound(call_a, a), _bound(call_b, b)
    if bound_a is None or bound_b is None:
        return None
    counts = set(book.fixed(a)) | set(book.fixed(b))
    for cls in (a, b):
        block = book.block(cls)
        if block is not None:
            counts.add(block)
    sizing = _sizing(book, a) | _sizing(book, b)
    # a parameter one of them does not take at all cannot be passed differently (a device's
    # `max_num_seqs` sizing the Mamba states its offload tier does not hold)
    both = set(parameter_names(a)) & set(parameter_names(b))
    shared: list[str] = []
    for name in sorted((set(bound_a) | set(bound_b) | sizing) - counts):
        if name not in sizing or name not in both:
            continue
        text_a, text_b = bound_a.get(name), bound_b.get(name)
        if text_b is not None and derived.get(text_b) == name:
            shared.append(text_b)
            continue
        if text_a != text_b:
            return None
        if text_a is not None and text_a not in shared:
            shared.append(text_a)
    return shared or None


def same_defaults(
    book: RoleBook, a: ClassInfo, call_a: ast.Call, b: ClassInfo, call_b: ast.Call
) -> list[str] | None:
    """The parameters sizing either pool when neither call passes any of them and both
    classes take each with the same default (`depth=NUM_LAYERS`, often one inherited
    `__init__`): the defaults are the configuration both are built from. Else None."""
    bound_a, bound_b = _bound(call_a, a), _bound(call_b, b)
    facts_a, facts_b = book.facts(a), book.facts(b)
    if bound_a is None or bound_b is None or facts_a is None or facts_b is None:
        return None
    counts = set(book.fixed(a)) | set(book.fixed(b))
    names = sorted((_sizing(book, a) | _sizing(book, b)) - counts)
    for name in names:
        if name in bound_a or name in bound_b:
            return None
        one, two = facts_a.params.get(name), facts_b.params.get(name)
        if one is None or two is None or one.default is None or one.default != two.default:
            return None
    return names or None


def _bound(call: ast.Call, cls: ClassInfo) -> dict[str, str] | None:
    """Constructor parameter -> the argument's text; None when `*`/`**` hide the binding."""
    nodes = bound_nodes(call, cls)
    return None if nodes is None else {name: ast.unparse(arg) for name, arg in nodes.items()}


def _passed_device_only(book: RoleBook, cls: ClassInfo, call: ast.Call, shared) -> bool:
    """Does the call building the device pass a parameter sizing its buffers an attribute of
    the object both pools are built from, which the other pool is not given (`tp_size=
    config.tp_size` beside `config.dtype`)? Measured with that parameter's default, the device
    would not be the one the function builds."""
    bound = bound_nodes(call, cls)
    if bound is None:
        return False
    sizing = _sizing(book, cls)
    roots = {text.split(".")[0] for text in shared}  # (`config` of `config.dtype`)
    return any(
        name in sizing
        and isinstance(node, ast.Attribute)
        and ast.unparse(node).split(".")[0] in roots  # more of the object both are built from
        and ast.unparse(node) not in shared
        and name not in book.tokens(cls) + book.layers(cls)
        for name, node in bound.items()
    )


def _given_inside(
    book: RoleBook,
    cls: ClassInfo,
    call: ast.Call,
    other: ClassInfo,
    other_call: ast.Call,
    function: ast.AST | None = None,
) -> bool:
    """Does `call` give, for a parameter sizing `cls` that `other` does not take, an object
    built in the call from a local the other call passes too (`OffloadConfig(n_cells=n,
    dtype=dtype)` beside `DeviceCache(..., dtype=dtype)`), or a field of an object the other
    call is given whole (`payload_dtype=quant.payload_dtype` beside `DeviceCache(...,
    quant=quant)`)? Measured on its own, the first would hold its class's defaults, and the
    second be sampled apart from the field the other reads: not the value both are given. An
    object built on a line of its own (`layout = Planner.plan(arch, dtype)`, then `Pool(arch,
    layout)`, bound once in `function`) counts as built in the call."""
    bound = bound_nodes(call, cls)
    if bound is not None and function is not None:
        bound = {name: _built_once(function, node) for name, node in bound.items()}
    theirs = bound_nodes(other_call, other)
    if bound is None or theirs is None:
        return False
    passed = {n.id for node in theirs.values() for n in _value_names(node)}
    whole = {node.id for node in theirs.values() if isinstance(node, ast.Name)} - {"self"}
    sizing = _sizing(book, cls)
    others = set(parameter_names(other))
    return any(
        name in sizing
        and name not in others
        and (
            (
                isinstance(node, ast.Call)
                and any(
                    n.id in passed
                    for argument in [*node.args, *(k.value for k in node.keywords)]
                    for n in _value_names(argument)
                )
            )
            or (_attribute_root(node) in whole)
        )
        for name, node in bound.items()
    )


def _shared_from_function(
    book: RoleBook,
    module: ModuleInfo,
    cls: ClassInfo,
    call: ast.Call,
    function: ast.AST,
    shared: list[str],
) -> bool:
    """Do both pools take an object the function gets from a function of its own
    (`backend = get_attn_backend(name)`, then `Gpu(*common)` and `Cpu(*common)`), that the
    pool reads as an object no config supplies (`self.backend.get_kv_cache_shape(...)`)?
    Then only running the function gives it: measured on their own, both would hold a
    sample where the object goes."""
    bound = bound_nodes(call, cls) or splat_bound(function, call, cls) or {}
    facts = book.facts(cls)
    if facts is None:
        return False
    objects = book.objects(cls)
    for name, node in bound.items():
        if not isinstance(node, ast.Name) or node.id not in shared:
            continue
        made = _built_once(function, node)
        if (
            isinstance(made, ast.Call)
            and isinstance(made.func, ast.Name)
            and isinstance(book.index.resolve_static(module, made.func.id), FunctionInfo)
            and facts.read_attributes.get(name)
            and name not in objects
        ):
            return True
    return False


def _built_once(function: ast.AST, node: ast.expr) -> ast.expr:
    """The call a local name is bound to, when the function binds it once, to a call
    (`layout = LayoutPlanner.plan(arch, kv_cache_dtype)`); else the node itself."""
    if not isinstance(node, ast.Name):
        return node
    bound = [
        n
        for n in walk.nodes(function)
        if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.With))
        and any(
            isinstance(t, ast.Name) and t.id == node.id
            for target in _targets(n)
            for t in ast.walk(target)
        )
    ]
    if (
        len(bound) == 1
        and isinstance(bound[0], ast.Assign)
        and isinstance(bound[0].value, ast.Call)
    ):
        return bound[0].value
    return node


def _targets(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, ast.Assign):
        return list(node.targets)
    if isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For)):
        return [node.target]
    if isinstance(node, ast.With):
        return [i.optional_vars for i in node.items if i.optional_vars is not None]
    return []


def _attribute_root(node: ast.AST) -> str | None:
    """`quant` of `quant.payload_dtype` (of `quant.spec.dtype`); None for anything else."""
    if not isinstance(node, ast.Attribute):
        return None
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _value_names(node: ast.AST) -> list[ast.Name]:
    """The plain names an expression passes as values (`dtype` of `dtype=dtype`, of `f(dtype)`),
    not the callees nor the objects attributes are read off (`torch` of `torch.float16`)."""
    skipped = {id(n.func) for n in ast.walk(node) if isinstance(n, ast.Call)} | {
        id(n.value) for n in ast.walk(node) if isinstance(n, ast.Attribute)
    }
    return [
        n
        for n in ast.walk(node)
        if isinstance(n, ast.Name) and id(n) not in skipped and n.id != "self"
    ]


def _sizing(book: RoleBook, cls: ClassInfo) -> set[str]:
    """Constructor parameters a buffer's shape or dtype depends on, or that choose one."""
    facts = book.facts(cls)
    if facts is None:
        return set()
    names: set[str] = set()
    for shape in facts.shapes:
        for dim in shape:
            names |= dim
    names |= facts.dtype_params | set(facts.flags) | facts.sized_by
    names |= set(facts.objects) | facts.range_roots | set(facts.tables) | set(facts.members)
    own = set(parameter_names(cls))
    return {n.partition(".")[0] for n in names} & own
