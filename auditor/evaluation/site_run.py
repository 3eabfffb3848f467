"""Evaluate a construction site through the function that contains it.

Assembly code builds hosts several steps away from the call: `kwargs = dict(...)` then
`kwargs.update(...)` or `kwargs["x"] = ...`, a helper returning `(cls, record, kwargs)`, a
factory choosing the class (`get_mha_host_pool_cls(info)`), several `**` at one call. Rather
than reading the call's arguments as text, the function that holds the call is run in the
interpreter, with the device pool built at the config point as its pool parameter, and stopped
at the call: the class and arguments it would construct the host with are what the code itself
computed. Python only (dicts, tuples, calls): nothing here is specific to one engine.
"""

from __future__ import annotations

import ast
import dataclasses
import textwrap
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import libcst as cst

from auditor.evaluation.anchors import stand_in_anchors
from auditor.evaluation.matrix import constructor_parameters, parameter_names
from auditor.evaluation.passed_classes import class_bound
from auditor.frontend.behaviour import Param, object_path
from auditor.frontend.index import ClassInfo, FunctionInfo
from auditor.frontend.scope import code_of
from auditor.interpret.control import Infeasible, SiteReached
from auditor.interpret.machine import Interpreter
from auditor.interpret.scopes import Frame
from auditor.interpret.values import (
    ClassRef,
    ConfigDependency,
    Instance,
    RuntimeObject,
    Unknown,
    Why,
    is_unknown,
)

if TYPE_CHECKING:  # a site is pairing's; running it reads its fields
    from auditor.evaluation.evaluate import Evaluation
    from auditor.pairing.sites import ConstructionSite
    from auditor.settings import Settings


@dataclass
class SiteRun:
    """What running the enclosing function gave at one build: the host built at the call, or
    why the call was not reached (the caller then reads the arguments as written)."""

    host: Any = None
    missed: str | None = None
    branches: list[str] = field(default_factory=list)  # undecided tests taken toward the call
    passed: list[str] = field(default_factory=list)  # host parameters the call passes
    # the config values read, and literals compared, up to the call (first_builds.py)
    reached: tuple[frozenset, frozenset] = (frozenset(), frozenset())


def other_host(function: str, built: ClassInfo, host: ClassInfo) -> Infeasible:
    """Why a point is infeasible for a pair whose site builds another host class there."""
    chosen = f"{function}() builds {built.name}"
    return Infeasible(f"{chosen} at this point, not {host.name}", None, chosen)


class OtherHost(Infeasible):
    """The function holding the site builds another host class at this point (a factory's
    choice): `built`, with the config reads and demands up to the call, as SiteRun.reached."""

    def __init__(
        self, function: str, built: ClassInfo, host: ClassInfo, location, reached: tuple
    ) -> None:
        refusal = other_host(function, built, host)
        super().__init__(refusal.reason, location, refusal.chosen)
        self.built, self.reached = built, reached


def never_built(evaluation: Evaluation) -> bool:
    """No config point built the pair, and at some the function holding the site built
    another host class there (a factory's choice; at the others the device itself, or the
    path to the call, is infeasible): the code never hands this device to this host in the
    matrix."""
    points = evaluation.points
    if not points or evaluation.feasible:
        return False
    return any(p.infeasible is not None and p.infeasible.chosen is not None for p in points)


def enclosing_function(site: ConstructionSite) -> FunctionInfo | None:
    """The module-level function holding the site (methods need their object: not run); once
    per site (asked at every build of every point)."""
    memo = site.substituted
    if "<enclosing>" not in memo:
        memo["<enclosing>"] = _enclosing_function(site)
    return memo["<enclosing>"]


def _enclosing_function(site: ConstructionSite) -> FunctionInfo | None:
    prefix = site.module.name + "."
    name = site.function.removeprefix(prefix) if site.module.name else site.function
    if "." in name:
        return _composed_method(site, name)
    function = site.module.functions.get(name)
    if function is None or not any(node is function.node for node in site.module.parsed.tree.body):
        return None  # (a function defined under an `if` at module level is not run)
    # the site's call within that function: found by visiting the function alone (visiting the
    # module up to it, classes and all, took a second in a large module)
    return function if _path_to(site, function.node) else None


def _composed_method(site: ConstructionSite, name: str) -> FunctionInfo | None:
    """The method of a class of the site's module holding a composed site (composed.py): run
    on an object its `__init__` builds from stand-ins (`_run`). Other sites' methods: None."""
    owner_name, _, method = name.partition(".")
    owner = site.module.classes.get(owner_name)
    if site.device_call is None or owner is None or "." in method:
        return None
    function = owner.methods.get(method)
    if function is None or not _path_to(site, function.node):
        return None
    return function


def init_stand_ins(owner: ClassInfo, kept: dict[str, str] | None = None) -> dict[str, str]:
    """The object path of each parameter of a class's `__init__` that a composed method run
    gives a stand-in (an object, not a plain number, text or flag): the path the pools read
    the attribute it is kept under with (`kept`: `self.store_config` -> `StoreConfig`, from
    `self.store_config = store_config`), else its annotation's class, else `config`."""
    init = owner.find_method("__init__")
    if init is None:
        return {}
    params = init.node.params
    names = {p.name.value for p in [*params.params[1:], *params.kwonly_params]}
    kept_as: dict[str, str] = {}  # parameter -> `self.x` it is kept under
    for statement in init.node.body.body:
        for small in getattr(statement, "body", ()):
            if isinstance(small, cst.Assign) and len(small.targets) == 1:
                target, value = small.targets[0].target, small.value
                if isinstance(value, cst.Name) and value.value in names:
                    kept_as.setdefault(value.value, code_of(target))
    found = {}
    for param in [*params.params[1:], *params.kwonly_params]:
        annotation = param.annotation
        text = code_of(annotation.annotation) if annotation is not None else ""
        if text in _PLAIN or isinstance(param.default, _LITERALS):
            continue
        name = param.name.value
        found[name] = (kept or {}).get(kept_as.get(name, "")) or stand_in_path(param)
    return found


_PLAIN = frozenset({"int", "float", "str", "bool", "torch.dtype", "dtype"})
_LITERALS = (cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString)


def device_parameter(site: ConstructionSite, function: FunctionInfo) -> str | None:
    """The enclosing function's variable that holds the device pool at the site: a parameter,
    or a plain local name (`first, *rest = pools`), which the run binds to the device."""
    text = site.device_text
    if text is None or not text.isidentifier():
        return None
    params = function.node.params
    names = {p.name.value for p in [*params.posonly_params, *params.params, *params.kwonly_params]}
    return text if text in names or text in site.local_names else None


def runnable(site: ConstructionSite) -> bool:
    function = enclosing_function(site)
    if function is not None and site.device_call is not None:  # composed.py: always run
        return True
    return function is not None and device_parameter(site, function) is not None


def composed_run(site: ConstructionSite | None) -> bool:
    """Is this a composed pair's site (composed.py), whose function is run for both pools?"""
    return site is not None and site.device_call is not None and runnable(site)


def device_call_values(site: ConstructionSite, device: ClassInfo) -> dict[str, Any]:
    """The device pool's constructor parameters that the function holding the site builds it
    with literal values (`pool = LatentKVPool(latent_dim=latent_dim, ...)` in `def
    init_memory_pool(latent_dim=512)`, or `latent_dim=512` at the call), when the device the
    site passes is built there: what the code builds the device with when its callers say
    nothing. Evaluation gives them to parameters with no value of their own (free), instead of
    samples, so that the device is measured as that function builds it."""
    function = enclosing_function(site)
    if function is None or site.device_text is None:
        return {}
    memo = site.substituted
    key = ("<device call values>", id(device))
    if key not in memo:
        memo[key] = _device_call_values(function, site.device_text, device)
    return memo[key]


def _device_call_values(function: FunctionInfo, name: str, device: ClassInfo) -> dict[str, Any]:
    finder = _DeviceCall(name, device.name)
    function.node.body.visit(finder)
    if len(finder.calls) != 1 or len(finder.bound) != 1:
        return {}  # built twice, or the name bound again: not one construction to read
    call = finder.calls[0]
    params = function.node.params
    defaults = {
        p.name.value: p.default
        for p in [*params.params, *params.kwonly_params]
        if p.default is not None and p.name.value not in finder.bound_names
    }
    init = device.find_method("__init__")
    if init is None or isinstance(init.node.params.star_arg, cst.Param):
        return {}  # (`*args` takes what comes after its positional parameters)
    own = init.node.params
    names = [p.name.value for p in [*own.posonly_params, *own.params]]
    names = names[1:] if names[:1] == ["self"] else names
    passed: list[tuple[str, cst.BaseExpression]] = []
    for position, arg in enumerate(call.args):
        if arg.star:
            return {}
        if arg.keyword is not None:
            passed.append((arg.keyword.value, arg.value))
        elif position < len(names):
            passed.append((names[position], arg.value))
    found: dict[str, Any] = {}
    for parameter, value in passed:
        if isinstance(value, cst.Name) and value.value in defaults:
            value = defaults[value.value]
        if not isinstance(value, (cst.Integer, cst.Float, cst.SimpleString, cst.Name)):
            continue
        try:
            literal = ast.literal_eval(code_of(value))
        except (ValueError, SyntaxError):
            continue
        if isinstance(literal, (bool, int, float, str)):
            found[parameter] = literal
    return found


class _DeviceCall(cst.CSTVisitor):
    """`name = Device(...)` in a function body; the names it binds (a parameter bound again
    does not hold its default)."""

    def __init__(self, name: str, device: str) -> None:
        self.name, self.device = name, device
        self.calls: list[cst.Call] = []
        self.bound: list[cst.CSTNode] = []
        self.bound_names: set[str] = set()

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            for part in _names_bound(target.target):
                self.bound_names.add(part)
                if part == self.name:
                    self.bound.append(node)
                    value = node.value
                    if isinstance(value, cst.Call) and code_of(value.func).split(".")[-1] == (
                        self.device
                    ):
                        self.calls.append(value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self.bound_names.update(_names_bound(node.target))

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self.bound_names.update(_names_bound(node.target))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False  # a nested function's names are its own


def _names_bound(target: cst.BaseExpression) -> list[str]:
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for e in target.elements for n in _names_bound(e.value)]
    return []


def run_parameters(site: ConstructionSite) -> list[str]:
    """The parameters of the function run for the site (none when it is not run)."""
    function = enclosing_function(site)
    if function is None or not runnable(site):
        return []
    params = function.node.params
    return [p.name.value for p in [*params.params, *params.kwonly_params]]


def run_defaults(site: ConstructionSite) -> dict[str, Any]:
    """The literal defaults (numbers, strings, flags) of the parameters of the function run
    for a composed site: what the code builds both pools with when its callers say nothing."""
    function = enclosing_function(site)
    if function is None or not runnable(site):
        return {}
    params = function.node.params
    found = {}
    for param in [*params.params, *params.kwonly_params]:
        if isinstance(param.default, (cst.Integer, cst.Float, cst.SimpleString, cst.Name)):
            try:
                value = ast.literal_eval(code_of(param.default))
            except (ValueError, SyntaxError):
                continue
            if isinstance(value, (bool, int, float, str)):
                found[param.name.value] = value
    return found


def run_site(
    site: ConstructionSite,
    interpreter: Interpreter,
    values: dict,
    device: Instance,
    varied: tuple[str, ...] = (),
    settings: Settings | None = None,
    objects: dict[str, str] | None = None,
) -> SiteRun:
    """Run the function holding the site with `device` as its pool parameter; parameters the
    config point has values for take them, the others their defaults (callers are not
    followed), and stop at the call. The host's parameters named in `varied` (its token count,
    which measuring varies) take the point's value whatever the call passes; those `objects`
    names (config objects, RoleBook.objects) the stand-in when the callers' value is unknown."""
    function = enclosing_function(site)
    assert function is not None
    if function.node.params.posonly_params:
        return SiteRun(missed=f"{function.name}() has positional-only parameters")
    given = (varied, settings, objects)
    run = _run(site, function, interpreter, values, device, *given, defaults=True)
    if run.missed is None:
        return run
    # the defaults lead elsewhere (`if drafts:` with drafts=()): the callers' values decide
    return _run(site, function, interpreter, values, device, *given, defaults=False)


def _run(
    site: ConstructionSite,
    function: FunctionInfo,
    interpreter: Interpreter,
    values: dict,
    device: Instance,
    varied: tuple[str, ...],
    settings: Settings | None,
    objects: dict[str, str] | None,
    defaults: bool,
) -> SiteRun:
    pool = device_parameter(site, function)
    kwargs: dict[str, Any] = {}
    assumed: list[str] = []  # what the run took for granted, said with the pair
    params = function.node.params
    method = function.owner is not None  # a composed site's method (composed.py)
    for param in [*params.params[int(method) :], *params.kwonly_params]:
        name = param.name.value
        if name == pool:
            kwargs[name] = device
        elif (
            name in site.roots
            and (_read_as_object(site, function, name) or _loose(site, function, param, values))
        ) or _unsupplied_input(site, function, param, values):  # composed.py:
            # what both pools are built from, an object: a stand-in
            loose = not _read_as_object(site, function, name)
            path = dict(site.stand_ins).get(name) or stand_in_path(param, function.node)
            klass = interpreter.index.resolve_static(function.module, path.partition(".")[0])
            klass = klass if isinstance(klass, ClassInfo) and "." not in path else None
            if loose:  # read under its own name (`tp_size`, not its annotation's `int`)
                path = name
            known = _default_mapping(param, function, interpreter) if defaults else None
            kwargs[name] = RuntimeObject(path, given=True, klass=klass, known=known, loose=loose)
            # properties run; the code's own mapping it defaults to, if one: said)
            if known is not None:
                assumed.append(
                    f"{name}: the keys and numbers of {function.name}()'s default "
                    f"{function.module.parsed.code(param.default).strip()}"
                )
        elif site.from_callers is not None and name == site.from_callers.parameter:
            kwargs[name] = _callers_value(site, interpreter, pool, device)
        elif name in values:
            kwargs[name] = ConfigDependency(name)
        elif param.default is None or not defaults:
            kwargs[name] = Unknown(
                f"{name}, an argument the callers of {function.name}() pass (not followed)",
                site.location,
                why=Why.CALLERS,
            )
    previous = interpreter.site_call, interpreter.site_branches, interpreter.site_pin
    interpreter.site_call, interpreter.site_branches = site.call, []
    interpreter.site_pin = (function.node, pool, device)
    interpreter.site_path = _path_to(site, function.node)
    reached: SiteReached | None = None
    try:
        if method:
            _call_method(function, interpreter, kwargs, values, site)
        else:
            interpreter.call_function(function, None, [], kwargs, site.location)
    except SiteReached as signal:
        reached = signal
    except Infeasible as signal:  # refused before the call on the defaults' path
        if not defaults:
            raise
        return SiteRun(missed=f"{function.name}() refused its defaults: {signal.reason}")
    finally:
        branches = list(interpreter.site_branches or ())
        interpreter.site_call, interpreter.site_branches, interpreter.site_pin = previous
        interpreter.site_path = frozenset()
    if reached is None:
        return SiteRun(missed=f"{function.name}() did not reach the call")
    if not defaults:
        branches.insert(0, f"the callers' arguments to {function.name}() unknown")
    branches.extend(assumed)
    return _construct(site, interpreter, values, reached, branches, varied, settings, objects)


def own_mapping(value: Any) -> dict | None:
    """A dict of the code's own keyed by names (a model config), else None."""
    if isinstance(value, dict) and value and all(isinstance(k, str) for k in value):
        return value
    return None


def _default_mapping(
    param: cst.Param, function: FunctionInfo, interpreter: Interpreter
) -> dict | None:
    """The mapping a parameter defaults to (`cfg=LLAMA3_CONFIG`), if one."""
    if param.default is None:
        return None
    try:
        value = interpreter.eval(param.default, Frame(function.module, locals_={}))
    except Infeasible:
        return None
    return own_mapping(value)


def _unsupplied_input(
    site: ConstructionSite, function: FunctionInfo, param: cst.Param, values: dict
) -> bool:
    """A parameter of a composed run (both pools built in it) that nothing gives a value
    (no default, none in the point), read as an object or computed with (`specs =
    attention_specs(model_cfg.head_dim, model_cfg.num_key_value_heads // tp_size)`, `gpu =
    Pool(specs)`, then `Host.mirror_of(gpu)`): a stand-in, or the device, and the host built
    from it, would hold nothing known, even where both are not built from it alike (the
    roots). Not one the function only tests (`if draft:`): a stand-in would decide it."""
    name = param.name.value
    if not site.device_at or name in values or param.default is not None:
        return False  # (device_at: kept by the device's own run, run_device's shadow)
    return _read_as_object(site, function, name) or name in _names_in(site, function, _Operands)


class _Operands(cst.CSTVisitor):
    """The plain names computed with (`tp_size` of `heads // tp_size`)."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        for side in (node.left, node.right):
            if isinstance(side, cst.Name):
                self.names.add(side.value)


def _read_as_object(site: ConstructionSite, function: FunctionInfo, name: str) -> bool:
    """Does the function read attributes off its parameter (`s.head_dim`) or pass it whole to
    a pool's config-object parameter? Else it holds one value (`page_size: int = 1`, a dtype,
    `v_head_dim=None`): the point's, or its default, as any other parameter."""
    return name in dict(site.stand_ins) or name in _names_in(site, function, _AttributeRoots)


def _names_in(site: ConstructionSite, function: FunctionInfo, finder: type) -> frozenset[str]:
    """The names a visitor class collects (`names`) over the function's body, once per site
    and finder (asked at every build)."""
    key = (finder.__name__, id(function.node))
    memo = site.substituted
    if key not in memo:
        visitor = finder()
        function.node.body.visit(visitor)
        memo[key] = frozenset(visitor.names)
    return memo[key]


def _loose(site: ConstructionSite, function: FunctionInfo, param: cst.Param, values) -> bool:
    """A parameter both pools are built from that nothing gives a value (no default, none in
    the point) and that the function passes on whole: a stand-in (see below)."""
    name = param.name.value
    return name not in values and param.default is None and _passed_whole(site, function, name)


def _passed_whole(site: ConstructionSite, function: FunctionInfo, name: str) -> bool:
    """Does the function pass its parameter, as it is, to a call other than the pools'
    own (`HFModelConfig(hf_config)`), and never to a pool (`Pool(kv_heads)`: a value that
    pool's parameter says the kind of)? With no value of its own (no default, none in the
    point), it stands for an object the callers give: what the callee reads off it
    (`hf["head_dim"]`) is sampled, where taken as one value it would leave everything it
    sizes unknown."""
    key = ("<passed whole>", id(function.node))  # once per site (asked at every build)
    memo = site.substituted
    if key not in memo:
        visitor = _PassedWhole({id(c) for c in (site.call, site.device_call) if c is not None})
        function.node.body.visit(visitor)
        memo[key] = frozenset(visitor.names - visitor.to_pools)
    return name in memo[key]


class _PassedWhole(cst.CSTVisitor):
    """The plain names given as arguments (`cfg` of `Wrap(cfg, n)`, not of `Wrap(*cfg)`),
    apart from those the pools' own calls are given."""

    def __init__(self, pool_calls: set[int]) -> None:
        self.pool_calls = pool_calls
        self.names: set[str] = set()
        self.to_pools: set[str] = set()

    def visit_Call(self, node: cst.Call) -> None:
        into = self.to_pools if id(node) in self.pool_calls else self.names
        for arg in node.args:
            if isinstance(arg.value, cst.Name) and arg.star == "":
                into.add(arg.value.value)


class _AttributeRoots(cst.CSTVisitor):
    """The names attributes are read off (`s` of `s.head_dim`)."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if isinstance(node.value, cst.Name):
            self.names.add(node.value.value)


def stand_in_path(param: cst.Param, function: cst.FunctionDef | None = None) -> str:
    """The path a parameter's stand-in reads config values under: its annotation's class, else
    the class the function builds when it is not given (`config = config or ModelConfig()`),
    else `config` (behaviour.object_path, as for a pool's config objects)."""
    annotation = code_of(param.annotation.annotation) if param.annotation is not None else None
    if annotation is None and function is not None:
        annotation = _built_when_missing(function, param.name.value)
    return object_path(Param(param.name.value, annotation, None))


def _built_when_missing(function: cst.FunctionDef, name: str) -> str | None:
    """The class whose instance a function binds its parameter to when it is not given
    (`name = name or Cls()`, `if name is None: name = Cls()`): passed_classes reads this for
    the calls building a pool; here on the function run for a site, read once per function."""
    known = _BOUND.get(id(function))
    if known is None or known[0] is not function:  # (an id may be reused)
        try:
            tree = ast.parse(textwrap.dedent(code_of(function)))
        except SyntaxError:
            tree = None
        node = tree.body[0] if tree is not None and tree.body else None
        known = (function, node, {})
        _BOUND[id(function)] = known
    _, node, names = known
    if node is None:
        return None
    if name not in names:
        names[name] = class_bound(node, name)
    return names[name]


# function run for a site -> (the function, CPython's tree of it, name -> class bound)
_BOUND: dict[int, tuple[cst.FunctionDef, ast.AST | None, dict[str, str | None]]] = {}


def stand_in_paths(site: ConstructionSite) -> set[str]:
    """The paths of the stand-ins a composed site's run gives the function's parameters."""
    function = enclosing_function(site)
    if function is None:
        return set()
    params = function.node.params
    paths = dict(site.stand_ins)
    found = {
        paths.get(p.name.value) or stand_in_path(p, function.node)
        for p in [*params.params, *params.kwonly_params]
        if p.name.value in site.roots
    } | {  # (what a loose parameter's stand-in is read under: its own name)
        p.name.value
        for p in [*params.params, *params.kwonly_params]
        if p.name.value in site.roots and p.default is None
    }
    for p in [*params.params, *params.kwonly_params]:  # (and those _unsupplied_input takes)
        if p.name.value not in site.roots and _unsupplied_input(site, function, p, {}):
            found |= {paths.get(p.name.value) or stand_in_path(p, function.node), p.name.value}
    if function.owner is not None and function.name != "__init__":
        found |= set(init_stand_ins(function.owner, paths).values())
    return found


def run_device(
    site: ConstructionSite,
    interpreter: Interpreter,
    values: dict,
    device_cls: ClassInfo,
    varied: tuple[str, ...],
    objects: dict[str, str],
) -> SiteRun:
    """The device pool of a composed pair (composed.py): the function holding both calls run
    to the device's call, and the device built there with what the function computed for it;
    its token and layer counts (`varied`) the point's, as the other pool's are."""
    function = enclosing_function(site)
    assert function is not None and site.device_call is not None
    shadow = dataclasses.replace(
        site,
        host=device_cls,
        call=site.device_call,
        via_call=site.device_via_call,
        device_via_call=None,
        device_call=None,
        device_text=None,
    )
    return _run(shadow, function, interpreter, values, None, varied, None, objects, defaults=True)


def _call_method(
    function: FunctionInfo, interpreter: Interpreter, kwargs: dict, values: dict, site
) -> None:
    """A composed site's method run: `__init__` as the class is built with `kwargs`; another
    method on an object `__init__` builds from stand-ins (init_stand_ins), then called."""
    owner = function.owner
    assert owner is not None
    if function.name == "__init__":
        interpreter.instantiate(owner, [], kwargs, site.location)
        return
    key = ("<init stand-ins>", id(owner))  # syntax only: once per site, not per build
    paths = site.substituted.get(key)
    if paths is None:
        paths = site.substituted[key] = init_stand_ins(owner, dict(site.stand_ins))
    arguments: dict[str, Any] = {
        name: RuntimeObject(path, given=True) for name, path in paths.items()
    }
    obj = interpreter.instantiate(owner, [], arguments, site.location)  # raises as __init__ does
    interpreter.call_function(function, obj, [], kwargs, site.location)


def _callers_value(
    site: ConstructionSite, interpreter: Interpreter, pool: str, device: Instance
) -> Any:
    """The record parameter as the callers pass it (`mamba_pool.get_device_pool_infos()[0]`),
    read off the device the run is given."""
    node = cst.parse_expression(site.from_callers.value)
    try:
        return interpreter.eval(node, Frame(site.module, locals_={pool: device}))
    except Infeasible as signal:
        return Unknown(signal.reason, signal.location)


def _construct(
    site: ConstructionSite,
    interpreter: Interpreter,
    values: dict,
    reached: SiteReached,
    branches: list[str],
    varied: tuple[str, ...],
    settings: Settings | None = None,
    objects: dict[str, str] | None = None,
) -> SiteRun:
    func = reached.func
    if is_unknown(func):
        return SiteRun(missed=f"the class called is not known: {func.reason}")
    if not isinstance(func, ClassRef):
        return SiteRun(missed=f"the callee is a {type(func).__name__}, not a class")
    point = interpreter.point
    read_so_far = (frozenset(point.reads), frozenset(point.demands))
    if func.cls is not site.host:
        name = site.function.rsplit(".", 1)[-1]
        raise OtherHost(name, func.cls, site.host, site.location, read_so_far)
    names = parameter_names(site.host)
    kwargs = dict(reached.kwargs)
    for name, value in zip(names, reached.args):
        kwargs[name] = value
    if reached.opened is not None:  # an unknown `**x`: any parameter not passed may be in it
        for name in names[len(reached.args) :]:
            kwargs.setdefault(
                name,
                Unknown(
                    f"{name} may be passed by an unknown ** or *: {reached.opened.reason}",
                    site.location,
                ),
            )
    for name, value in list(kwargs.items()):
        if is_unknown(value) and name in values:  # runtime state the pack gives values for
            if value.caused_by(Why.LOOKUP):
                continue  # (what the code computed and could not look up: not a sample's)
            kwargs[name] = ConfigDependency(name)
    for name in varied:
        if name in names and name in values:
            kwargs[name] = ConfigDependency(name)
        elif name in values and "." in name:  # a count kept in an object the code built
            _count_in_object(kwargs, name, objects or {}, interpreter.point)
    if not site.roots and site.device_call is None:  # (composed.py: the objects are the
        # ones the function computed)
        branches = branches + callers_objects(kwargs, objects or {})
    branches = branches + callers_defaults(site.host, kwargs)
    if settings is not None:  # the tier's host the code passes, where it is not known
        branches = branches + stand_in_anchors(
            site.host, kwargs, settings, interpreter, values, site.module, site.location
        )
    host = interpreter.instantiate(site.host, [], kwargs, site.location)
    return SiteRun(host=host, branches=branches, passed=sorted(kwargs), reached=read_so_far)


def _count_in_object(kwargs: dict, name: str, objects: dict[str, str], point: Any) -> None:
    """`KvLayout.num_blocks`, a pool's token count read off an object it takes that the run
    computed (`layout = KvLayout.for_prefill(s)`): that object, with the point's count."""
    path, _, attribute = name.rpartition(".")
    for parameter, held in objects.items():
        value = kwargs.get(parameter)
        if held == path and isinstance(value, Instance) and "." not in attribute:
            kwargs[parameter] = dataclasses.replace(
                value, attrs={**value.attrs, attribute: point.read(name)}
            )


def callers_objects(kwargs: dict, objects: dict[str, str]) -> list[str]:
    """A host parameter read as a config object (`cfg: ServingConfig`, RoleBook.objects) whose
    argument comes from the callers of the function run (`make_tiers(cfg)`, not followed) is
    the stand-in the device's evaluation reads the same object's values from: both pools see
    one configuration, as they do when the callers hand both the same object. Said."""
    notes = []
    for name, path in objects.items():
        value = kwargs.get(name)
        if is_unknown(value) and value.caused_by(Why.CALLERS):
            kwargs[name] = RuntimeObject(path)
            notes.append(
                f"{name}: the callers' value not known, taken as the config the pools read "
                f"({path}.*)"
            )
        elif name in kwargs and not is_unknown(value) and not isinstance(value, RuntimeObject):
            # a value of the code's own (`hf_config=DEEPSEEK_V3`, a default): the device was
            # built from the config point's stand-in, so the host reads the same one
            kwargs[name] = RuntimeObject(path)
            notes.append(f"{name}: taken as the config the pools read ({path}.*), as the device")
    return notes


def callers_defaults(host: ClassInfo, kwargs: dict) -> list[str]:
    """A host parameter defaulting to an empty tuple or list (`mtp_draft_device_pools=()`: the
    extra pools a speculative draft adds), or to a number (`ratio: float = 2.0`), whose argument
    comes from the callers of the function run (not followed) is taken as that default: the
    case without extras, or the value the host's author chose, said in the pair's assumptions.
    Any other unknown argument stays unknown."""
    notes = []
    for param in constructor_parameters(host):
        name = param.name.value
        value = kwargs.get(name)
        default = param.default
        if not (is_unknown(value) and value.caused_by(Why.CALLERS)):
            continue
        if isinstance(default, (cst.Tuple, cst.List)) and not default.elements:
            kwargs[name] = () if isinstance(default, cst.Tuple) else []
            notes.append(f"{name}: the callers' value not known, taken as its default (empty)")
        elif isinstance(default, (cst.Integer, cst.Float)):  # `ratio: float = 2.0`
            kwargs[name] = default.evaluated_value
            notes.append(
                f"{name}: the callers' value not known, taken as its default ({default.value})"
            )
    return notes


class _Path(cst.CSTVisitor):
    """Ids of the nodes enclosing one target node."""

    def __init__(self, target: cst.CSTNode) -> None:
        self.target = target
        self.stack: list[int] = []
        self.found: frozenset[int] = frozenset()

    def on_visit(self, node: cst.CSTNode) -> bool:
        if self.found:
            return False
        self.stack.append(id(node))
        if node is self.target:
            self.found = frozenset(self.stack)
            return False
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        if self.stack and self.stack[-1] == id(original_node):
            self.stack.pop()


def _path_to(site: ConstructionSite, root: cst.CSTNode) -> frozenset[int]:
    """The nodes from `root` down to the site's call (remembered on the site)."""
    target = site.via_call if site.via_call is not None else site.call
    key = ("<path>", id(root), id(target))
    memo = site.substituted
    if key not in memo:
        visitor = _Path(target)
        root.visit(visitor)
        memo[key] = visitor.found
    return memo[key]
