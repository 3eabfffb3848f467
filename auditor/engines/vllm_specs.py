"""vLLM's KV-layout model: spec classes, the places that build them, their pages per point.

vLLM has no host/device pool classes. A layer's KV storage is described by a frozen spec
dataclass (`FullAttentionSpec`, `MLAAttentionSpec`, ...) whose `page_size_bytes` property gives
the bytes of one block, and other code builds the same spec classes again to size something
else (the hybrid attention/Mamba alignment, offload specs). Both must agree at every config
point. This module finds, by behaviour, the spec classes (a class whose body defines
`page_size_bytes`, and its subclasses), every call that constructs one outside them, and
evaluates each call at each point of the pack's matrix (`vllm_run`): the layer's own specs (built in a
`get_kv_cache_spec`) and the recomputations (built anywhere else).
"""

from __future__ import annotations

import fnmatch
import itertools
from dataclasses import dataclass, field
from typing import Any

import libcst as cst

from auditor.dtypes import dtype_name, is_dtype
from auditor.engines.vllm_run import LAYER, LazySelf, NotReached, PathInterpreter
from auditor.frontend.index import ClassInfo, FunctionInfo, ModuleInfo, ProjectIndex, dotted
from auditor.interpret.machine import ConfigPoint, ModuleState
from auditor.interpret.scopes import Frame
from auditor.interpret.values import ClassRef, Instance, Unknown, is_unknown
from auditor.limits import Limits
from auditor.location import Location

PAGE = "page_size_bytes"
OWNER_FUNCTION = "get_kv_cache_spec"


@dataclass(frozen=True)
class SpecSite:
    """A call constructing a spec class, in a function: the layer's own or a recomputation."""

    spec: ClassInfo
    function: FunctionInfo
    call: cst.Call
    location: Location
    role: str  # "layer" (inside get_kv_cache_spec) or "recomputation"

    @property
    def where(self) -> str:
        return self.function.qualname


@dataclass(frozen=True)
class SpecValue:
    """A spec built at one point: its class, fields and page, or why it is not known."""

    class_name: str
    fields: tuple[tuple[str, str], ...]
    block_size: int | None
    page_bytes: int | None
    arithmetic: str
    unknown: Unknown | None = None

    @property
    def per_token(self) -> int | None:
        if self.page_bytes is None or not self.block_size:
            return None
        if self.page_bytes % self.block_size:
            return None
        return self.page_bytes // self.block_size


@dataclass(frozen=True)
class SiteOutcome:
    """A site at one point: its spec (None: not reached there, and why) and the dimensions
    the run read."""

    values: dict[str, Any]
    value: SpecValue | None
    why: str
    reads: frozenset[str]


@dataclass
class SiteResult:
    site: SpecSite
    points: list[SiteOutcome] = field(default_factory=list)


@dataclass(frozen=True)
class SpecRow:
    """One evaluated spec for `--show-pools` (plain data: cached with the result)."""

    title: str
    label: str
    text: str


@dataclass
class VllmPack:
    """The vLLM rule pack's `[vllm]` table, read."""

    models: list[dict[str, Any]]
    matrix: dict[str, list[Any]]
    reads: dict[str, str]
    fixed: dict[str, Any]
    mla_layers: list[str]
    non_mla_layers: list[str]
    other_platforms: list[str]
    config_getters: list[str] = field(default_factory=list)
    # the runner's variables a view run holds at a field of the layer's spec (no kernel split)
    view_pins: dict[str, str] = field(default_factory=dict)

    @property
    def shape_dimensions(self) -> set[str]:
        """The model-shape dimensions (head size, KV heads): a layer spec that reads none of
        them does not describe the layer the pack models (an indexer, a draft model)."""
        return {
            k
            for m in self.models
            for k, v in m.items()
            if k != "model" and not isinstance(v, (bool, str))
        }

    def points(self) -> list[dict[str, Any]]:
        names = sorted(self.matrix)
        out = []
        for model in self.models:
            for combo in itertools.product(*(self.matrix[n] for n in names)):
                values = dict(model)
                values.update(zip(names, combo))
                values.update(self.fixed)
                out.append(values)
        return out


def spec_classes(index: ProjectIndex, modules: list[ModuleInfo]) -> list[ClassInfo]:
    """Classes whose body defines `page_size_bytes`, and every in-tree subclass of them."""
    roots = [cls for module in modules for cls in module.classes.values() if PAGE in cls.methods]
    found: list[ClassInfo] = []
    for module in modules:
        for cls in module.classes.values():
            if any(base in roots for base in cls.mro()) and cls not in found:
                found.append(cls)
    return found


def spec_root(cls: ClassInfo, specs: list[ClassInfo]) -> ClassInfo:
    """The topmost spec class above `cls`."""
    return [k for k in cls.mro() if k in specs][-1]


def kinship(a: ClassInfo, b: ClassInfo, specs: list[ClassInfo]) -> bool:
    """Do two spec classes describe the same kind of storage (a common spec base below the
    root: FullAttentionSpec and MLAAttentionSpec are both attention, MambaSpec is not)?"""
    root = spec_root(a, specs)
    common = [k for k in a.mro() if k in specs and k in b.mro() and k is not root]
    return bool(common)


class _Calls(cst.CSTVisitor):
    def __init__(self) -> None:
        self.calls: list[tuple[cst.FunctionDef, cst.Call]] = []
        self.functions: list[cst.FunctionDef] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.functions.append(node)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.functions.pop()

    def visit_Call(self, node: cst.Call) -> None:
        if self.functions:
            self.calls.append((self.functions[-1], node))


def spec_sites(
    index: ProjectIndex,
    modules: list[ModuleInfo],
    specs: list[ClassInfo],
    other_platforms: list[str] = (),
) -> list[SpecSite]:
    """Every call constructing a spec class outside the spec classes' own methods, except in
    modules that run only on platforms the pack does not audit (`other-platforms`)."""
    by_name: dict[str, list[ClassInfo]] = {}
    for cls in specs:
        by_name.setdefault(cls.name, []).append(cls)
    sites: list[SpecSite] = []
    for module in modules:
        if any(fnmatch.fnmatchcase(module.name, pattern) for pattern in other_platforms):
            continue
        functions = _functions_of(module)
        visitor = _Calls()
        module.parsed.tree.visit(visitor)
        for function_node, call in visitor.calls:
            name = dotted(call.func)
            if name is None or name.rsplit(".", 1)[-1] not in by_name:
                continue
            target = index.resolve_static(module, name)
            if not isinstance(target, ClassInfo):
                candidates = by_name[name.rsplit(".", 1)[-1]]
                target = candidates[0] if len(candidates) == 1 else None
            if target is None or target not in specs:
                continue
            function = functions.get(id(function_node))
            if function is None or (function.owner is not None and function.owner in specs):
                continue
            role = "layer" if function.name == OWNER_FUNCTION else "recomputation"
            location = module.parsed.location(call)
            sites.append(SpecSite(target, function, call, location, role))
    return sites


def _functions_of(module: ModuleInfo) -> dict[int, FunctionInfo]:
    """The FunctionInfo of every top-level function and method, by node identity."""
    found: dict[int, FunctionInfo] = {}
    for function in module.functions.values():
        found[id(function.node)] = function
    for cls in module.classes.values():
        for method in cls.methods.values():
            found[id(method.node)] = method
    return found


def is_layer_class(cls: ClassInfo) -> bool:
    """A layer builds its own spec: `get_kv_cache_spec(self, vllm_config)`."""
    method = cls.find_method(OWNER_FUNCTION)
    if method is None:
        return False
    names = [p.name.value for p in method.node.params.params]
    return len(names) >= 2


def receiver_of(function: FunctionInfo) -> Any:
    owner = function.owner
    if owner is None:
        return None
    if function.has_decorator("staticmethod"):
        return None
    if function.has_decorator("classmethod"):
        return ClassRef(owner)
    return LazySelf(owner, LAYER if is_layer_class(owner) else "self")


def layer_applies(site: SpecSite, values: dict[str, Any], pack: VllmPack) -> bool:
    """Is the layer class holding this site built for the point's model (MLA or not)?"""
    owner = site.function.owner
    if site.role != "layer" or owner is None or not is_layer_class(owner):
        return True
    names = {k.name for k in owner.mro()}
    use_mla = values.get("use_mla")
    if names & set(pack.mla_layers):
        return use_mla is True
    if names & set(pack.non_mla_layers):
        return use_mla is False
    return True


class SpecEvaluator:
    """Evaluates every spec site at every point, running each only at the points that differ
    in a dimension it read."""

    def __init__(
        self, index: ProjectIndex, pack: VllmPack, limits: Limits, specs: list[ClassInfo]
    ) -> None:
        self.index = index
        self.pack = pack
        self.limits = limits
        self.specs = specs
        self.layer_ids = {id(c) for c in specs}

    def evaluate(self, sites: list[SpecSite]) -> list[SiteResult]:
        results = [SiteResult(site) for site in sites]
        memos: list[list[tuple[dict[str, Any], SiteOutcome]]] = [[] for _ in sites]
        for values in self.pack.points():
            state = ModuleState()
            for result, memo in zip(results, memos):
                if not layer_applies(result.site, values, self.pack):
                    continue
                reuse = next(
                    (m for m in memo if all(values.get(k) == v for k, v in m[0].items())), None
                )
                if reuse is not None:
                    known = reuse[1]
                    result.points.append(SiteOutcome(values, known.value, known.why, known.reads))
                    continue
                point = ConfigPoint(values)
                value, why = self._run(result.site, point, state)
                outcome = SiteOutcome(values, value, why, frozenset(point.reads))
                memo.append(({k: values[k] for k in point.reads if k in values}, outcome))
                result.points.append(outcome)
            state.release()
        return results

    def _run(
        self, site: SpecSite, point: ConfigPoint, state: ModuleState
    ) -> tuple[SpecValue | None, str]:
        interpreter = PathInterpreter(
            self.index,
            point,
            self.pack.reads,
            self.limits,
            self.layer_ids,
            state,
            frozenset(self.pack.config_getters),
        )
        try:
            value = interpreter.run_to(site.function, site.call, receiver_of(site.function))
        except NotReached as signal:
            return None, signal.reason
        except RecursionError:
            value = Unknown("nesting too deep to follow", site.location)
        return describe_spec(interpreter, value, site), ""


def describe_spec(interpreter: PathInterpreter, value: Any, site: SpecSite) -> SpecValue:
    """The class, fields, block size and page of a built spec, with the page's arithmetic."""
    if not isinstance(value, Instance):
        unknown = value if is_unknown(value) else Unknown("not a spec", site.location)
        return SpecValue(site.spec.name, (), None, None, "", unknown)
    fields = tuple((name, field_text(v)) for name, v in value.attrs.items() if not is_unknown(v))
    try:
        page = interpreter.get_attribute(value, PAGE, site.location)
    except RecursionError:
        page = Unknown("nesting too deep to follow", site.location)
    block = value.attrs.get("block_size")
    block = block if isinstance(block, int) and not isinstance(block, bool) else None
    if is_unknown(page) or not isinstance(page, int) or isinstance(page, bool):
        unknown = page if is_unknown(page) else Unknown(f"page of {page!r}", site.location)
        return SpecValue(value.cls.name, fields, block, None, "", unknown)
    arithmetic = page_arithmetic(interpreter, value, page)
    return SpecValue(value.cls.name, fields, block, page, arithmetic)


def field_text(value: Any) -> str:
    """A spec field as a reader wants it: `bfloat16`, `576`, `KVQuantMode.FP8_PER_TENSOR`."""
    if isinstance(value, Instance):
        name = value.attrs.get("name")
        return f"{value.cls.name}.{name}" if isinstance(name, str) else value.cls.name
    if isinstance(value, (tuple, list)) and len(value) > 8:
        return f"{type(value).__name__} of {len(value)}"
    return describe_value(value)


def page_arithmetic(interpreter: PathInterpreter, spec: Instance, page: int) -> str:
    """`<Class>.page_size_bytes: <formula> with <the fields it reads> = <page>`: the `return`
    of the page property that gives the page at this point (the first one that does), as
    written."""
    for klass in spec.cls.mro():
        method = klass.methods.get(PAGE)
        if method is None:
            continue
        parsed = method.module.parsed
        returns = _returns(method.node)
        chosen = returns[-1] if returns else None
        for node in returns:
            frame = Frame(method.module, locals_={"self": spec})
            try:
                if interpreter.eval(node, frame) == page:
                    chosen = node
                    break
            except RecursionError:
                break
        formula = " ".join(parsed.code(chosen).split()) if chosen is not None else "?"
        used = [name for name in spec.attrs if f"self.{name}" in formula]
        known = ", ".join(
            f"{name}={field_text(spec.attrs[name])}"
            for name in used
            if not is_unknown(spec.attrs[name])
        )
        text = f"{klass.name}.{PAGE}: {formula} with {known} = {page}"
        if chosen is not None and not any(f"self.{p}" in formula for p in _page_properties(spec)):
            # a padded page (`self.page_size_padded`): show the page property it was set from
            for name, inner in _page_properties(spec).items():
                if interpreter.get_attribute(spec, name, method_location(method)) == page:
                    inner_text = " ".join(parsed.code(inner).split())
                    text += f" ({name}: {inner_text})"
                    break
        return text
    return str(page)


def method_location(method: FunctionInfo) -> Location:
    return method.module.parsed.location(method.node)


def _page_properties(spec: Instance) -> dict[str, cst.BaseExpression]:
    """The spec's other page properties with a single `return`, by name (nearest first)."""
    found: dict[str, cst.BaseExpression] = {}
    for klass in spec.cls.mro():
        for name, method in klass.methods.items():
            if name == PAGE or "page" not in name or name in found:
                continue
            returns = _returns(method.node)
            if method.has_decorator("property") and len(returns) == 1:
                found[name] = returns[0]
    return found


_RETURNS: dict[int, tuple[cst.FunctionDef, list[cst.BaseExpression]]] = {}


def _returns(function: cst.FunctionDef) -> list[cst.BaseExpression]:
    """The values of a function's `return` statements (remembered per function)."""
    known = _RETURNS.get(id(function))
    if known is not None and known[0] is function:
        return known[1]
    out: list[cst.BaseExpression] = []
    _RETURNS[id(function)] = (function, out)

    class Visitor(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is function

        def visit_Return(self, node: cst.Return) -> None:
            if node.value is not None:
                out.append(node.value)

    function.visit(Visitor())
    return out


def spec_rows(results: list[SiteResult]) -> list[SpecRow]:
    """What `--show-pools` prints for a vLLM tree: each spec site's value at each point."""
    rows: list[SpecRow] = []
    for result in results:
        site = result.site
        title = f"{site.spec.name} built by {site.where} ({site.role}, {site.location})"
        for outcome in result.points:
            values, value = outcome.values, outcome.value
            label = point_label(values)
            if value is None:
                continue
            if value.page_bytes is None:
                reason = value.unknown.reason if value.unknown is not None else "?"
                reason = " ".join(reason.split())
                rows.append(SpecRow(title, label, f"unresolved: {reason}"))
                continue
            per_token = value.per_token
            token_text = f"{per_token} B/token, " if per_token is not None else ""
            rows.append(
                SpecRow(
                    title,
                    label,
                    f"{value.class_name}: {token_text}{value.page_bytes} B/block "
                    f"(block_size={value.block_size}); {value.arithmetic}",
                )
            )
    return rows


def describe_value(value: Any) -> str:
    """A config value as text (as auditor.evaluation.matrix writes it, one layer up)."""
    return dtype_name(value) if is_dtype(value) else str(value)


def point_label(values: dict[str, Any]) -> str:
    keys = ("model", "model_dtype", "cache_dtype", "block_size")
    return ", ".join(f"{k}={describe_value(values[k])}" for k in keys if k in values)
