"""vLLM attention backends: the view a backend puts on a layer's KV buffer, as the runner asks.

The model runner allocates each layer `num_blocks * spec.page_size_bytes` bytes and views them
with the shape its attention backend gives: `backend.get_kv_cache_shape(num_blocks,
spec.block_size, spec.num_kv_heads, spec.head_size, cache_dtype_str=...)` (vLLM up to 0.28),
in `spec.dtype`. Both must cover the same bytes. This module finds the backends (a class whose
body defines `get_kv_cache_shape`, and its subclasses), the runner's calls (a call of it whose
arguments read a spec variable), which backends accept a point (what each declares: MLA or
not, head sizes, model dtypes, cache dtypes), and runs each runner call with a layer's spec at
each point, up to the call only (`vllm_run`), for each backend that accepts it.
"""

from __future__ import annotations

import fnmatch
import math
import re
from dataclasses import dataclass, field
from typing import Any

import libcst as cst

from auditor.dtypes import dtype_name, is_dtype, itemsize
from auditor.engines.vllm_run import NotReached, PathInterpreter
from auditor.engines.vllm_specs import (
    SiteResult,
    SpecSite,
    VllmPack,
    _functions_of,
    describe_value,
    is_layer_class,
    receiver_of,
)
from auditor.frontend.index import (
    ClassInfo,
    FunctionInfo,
    ModuleInfo,
    ProjectIndex,
    import_bindings,
)
from auditor.interpret.control import (
    BreakSignal,
    BudgetExceeded,
    ContinueSignal,
    Infeasible,
    ReturnSignal,
    SiteReached,
)
from auditor.interpret.library import ABSENT
from auditor.interpret.machine import ConfigPoint, ModuleState
from auditor.interpret.scopes import Frame, assigned_targets
from auditor.interpret.values import ClassRef, Instance, Unknown, is_unknown
from auditor.limits import Limits
from auditor.location import Location

SHAPE = "get_kv_cache_shape"
DEFINES_SHAPE = re.compile(rb"def\s+get_kv_cache_shape\b")
CALLS_SHAPE = re.compile(rb"\.get_kv_cache_shape\s*\(")
# the block count the runner's view is asked for: any count will do (figures are per block);
# an odd one, so that a shape dimension equal to it is the block count and nothing else
BLOCKS = 7
_SPEC_FIELDS = ("head_size", "num_kv_heads", "block_size")
_PLAIN = (int, str, bool, float, type(None))


@dataclass(frozen=True)
class ViewSite:
    """A call of `get_kv_cache_shape` whose arguments read a spec variable (the runner's)."""

    function: FunctionInfo
    call: cst.Call
    location: Location
    spec_name: str  # the variable holding the layer's spec at the call
    # `raw.numel() // <spec>.page_size_bytes` (the block count): each is given BLOCKS blocks
    blocks: tuple[cst.BaseExpression, ...]

    @property
    def where(self) -> str:
        return self.function.qualname


@dataclass(frozen=True)
class ViewOutcome:
    """One backend's view of one layer spec at one point, through one runner call."""

    values: dict[str, Any]
    backend: ClassInfo
    layer: SpecSite
    view: ViewSite
    spec_class: str
    spec_page: int  # bytes per block, the spec's page_size_bytes
    block_size: int
    view_bytes: int | None  # bytes per block the view covers (None: unknown, see `unknown`)
    shape_text: str  # "(7, 16, 656) of uint8"
    unknown: Unknown | None = None
    spec_arithmetic: str = ""  # the spec's page formula at this point
    call_text: str = ""  # the backend call as the runner made it, with its argument values
    reached: bool = True  # False: the runner does not get to its call at this point

    @property
    def spec_per_token(self) -> int | None:
        if not self.block_size or self.spec_page % self.block_size:
            return None
        return self.spec_page // self.block_size

    @property
    def view_per_token(self) -> int | None:
        if self.view_bytes is None or not self.block_size or self.view_bytes % self.block_size:
            return None
        return self.view_bytes // self.block_size


@dataclass
class BackendResult:
    """Every view evaluated, and why pairs were not compared (reason -> count)."""

    backends: list[ClassInfo] = field(default_factory=list)
    views: list[ViewSite] = field(default_factory=list)
    outcomes: list[ViewOutcome] = field(default_factory=list)


def defines_backends(data: bytes) -> bool:
    return SHAPE.encode() in data and DEFINES_SHAPE.search(data) is not None


def backend_roots(modules: list[ModuleInfo], other_platforms: list[str]) -> list[ClassInfo]:
    """Classes whose body defines `get_kv_cache_shape`, outside modules of platforms the pack
    does not audit, but for abstract ones (the method only raises)."""
    return [
        cls
        for module in modules
        if not _excluded(module, other_platforms)
        for cls in module.classes.values()
        if SHAPE in cls.methods and not _only_raises(cls.methods[SHAPE].node)
    ]


def subclass_pattern(classes: list[ClassInfo]) -> re.Pattern[bytes]:
    """From the bytes: a file that may define a subclass of one of these classes."""
    names = b"|".join(sorted({c.name.encode() for c in classes}))
    return re.compile(rb"class\s+\w+\s*\([^)]*\b(?:" + names + rb")\b")


def backend_classes(
    roots: list[ClassInfo], modules: list[ModuleInfo], other_platforms: list[str]
) -> list[ClassInfo]:
    """The roots and every subclass of them defined in `modules` (outside other platforms)."""
    found = list(roots)
    for module in modules:
        if _excluded(module, other_platforms):
            continue
        for cls in module.classes.values():
            if cls not in found and any(base in roots for base in cls.mro()):
                found.append(cls)
    return found


def _only_raises(function: cst.FunctionDef) -> bool:
    body = [s for s in function.body.body if not _is_docstring(s)]
    return (
        len(body) == 1
        and isinstance(body[0], cst.SimpleStatementLine)
        and isinstance(body[0].body[0], cst.Raise)
    )


def _is_docstring(statement: cst.CSTNode) -> bool:
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and isinstance(statement.body[0], cst.Expr)
        and isinstance(statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )


def stores_one_latent(backend: ClassInfo) -> bool | None:
    """Without `is_mla()` (vLLM 0.11): a shape that never uses its KV-heads argument (the
    third) stores one latent row per token, as MLA does; None when it cannot be told."""
    method = backend.find_method(SHAPE)
    if method is None:
        return None
    params = list(method.node.params.params)
    if method.has_decorator("classmethod") or (params and params[0].name.value == "self"):
        params = params[1:]
    if len(params) < 3:
        return None
    heads = params[2].name.value
    used = False

    class Uses(cst.CSTVisitor):
        def visit_Assert(self, node: cst.Assert) -> bool:
            return False  # `assert num_kv_heads == 1`: MLA says it has one

        def visit_Name(self, node: cst.Name) -> None:
            nonlocal used
            used = used or node.value == heads

    for statement in method.node.body.body:
        statement.visit(Uses())
    return not used


def view_sites(modules: list[ModuleInfo], backends: list[ClassInfo], other_platforms: list[str]):
    """Every `<x>.get_kv_cache_shape(...)` outside the backends whose arguments read the
    fields of one variable (`kv_cache_spec.head_size`), the spec the view is for: the runner
    viewing a layer's buffer, whose block count is raw bytes over that spec's page
    (`n = raw.numel() // spec.page_size_bytes`; without one the view is unknown, and said). A
    call with a made-up block count (`get_kv_cache_shape(1234, ...)`, asking where the block
    dimension is) is not one."""
    sites: list[ViewSite] = []
    for module in modules:
        if _excluded(module, other_platforms):
            continue
        functions = _functions_of(module)
        visitor = _ShapeCalls()
        module.parsed.tree.visit(visitor)
        for function_node, call in visitor.calls:
            function = functions.get(id(function_node))
            if function is None or (function.owner is not None and function.owner in backends):
                continue
            spec_name = _spec_variable(call)
            if spec_name is None:
                continue
            if _made_up_count(call):
                continue  # `get_kv_cache_shape(1234, ...)`: where is the block dimension?
            blocks = tuple(_block_counts(function.node, spec_name))
            location = module.parsed.location(call)
            sites.append(ViewSite(function, call, location, spec_name, blocks))
    return sites


def _excluded(module: ModuleInfo, patterns: list[str]) -> bool:
    return any(fnmatch.fnmatchcase(module.name, p) for p in patterns)


class _ShapeCalls(cst.CSTVisitor):
    def __init__(self) -> None:
        self.functions: list[cst.FunctionDef] = []
        self.calls: list[tuple[cst.FunctionDef, cst.Call]] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.functions.append(node)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.functions.pop()

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == SHAPE and self.functions:
            self.calls.append((self.functions[-1], node))


def _spec_variable(call: cst.Call) -> str | None:
    """The one variable whose spec fields (`x.head_size`, `x.num_kv_heads`) the call reads."""
    names: set[str] = set()

    class Reads(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> None:
            if node.attr.value in _SPEC_FIELDS and isinstance(node.value, cst.Name):
                names.add(node.value.value)

    for arg in call.args:
        arg.value.visit(Reads())
    return names.pop() if len(names) == 1 else None


def _made_up_count(call: cst.Call) -> bool:
    first = call.args[0].value if call.args else None
    return isinstance(first, cst.Integer)


def _block_counts(function: cst.FunctionDef, spec_name: str) -> list[cst.BaseExpression]:
    """The expressions `<raw bytes> // <spec>.page_size_bytes` (also over a name holding the
    page, `page_size = spec.page_size_bytes`), wherever they are (an assignment, an annotated
    one, `divmod(raw, page)`): the block count."""
    pages: set[str] = set()
    found: list[cst.BaseExpression] = []

    def is_page(node: cst.BaseExpression) -> bool:
        if isinstance(node, cst.Name):
            return node.value in pages
        return (
            isinstance(node, cst.Attribute)
            and node.attr.value == "page_size_bytes"
            and isinstance(node.value, cst.Name)
            and node.value.value == spec_name
        )

    class Pages(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            if is_page(node.value) and not isinstance(node.value, cst.Name):
                pages.update(t.target.value for t in node.targets if isinstance(t.target, cst.Name))

    class Divisions(cst.CSTVisitor):
        def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
            if isinstance(node.operator, cst.FloorDivide) and is_page(node.right):
                found.append(node)

    function.visit(Pages())
    function.visit(Divisions())
    return found


def registered_backends(backends: list[ClassInfo], data: list[bytes]) -> set[int]:
    """Backends the tree names by import path in a string (`FLASH_ATTN =
    "vllm.v1.attention.backends.flash_attn.FlashAttentionBackend"`): the attention selector's
    registry, which chooses among them by that path."""
    by_path = {f"{b.module.name}.{b.name}".encode(): id(b) for b in backends}
    if not by_path:
        return set()
    quoted = re.compile(rb"[\"'](" + b"|".join(re.escape(p) for p in by_path) + rb")[\"']")
    found: set[int] = set()
    for blob in data:
        if b"Backend" in blob or b"backend" in blob:
            found.update(by_path[m.group(1)] for m in quoted.finditer(blob))
    return found


def holder_pattern(backends: list[ClassInfo]) -> re.Pattern[bytes]:
    """From the bytes: a file that may hold a backend class as a value (`= XBackend`,
    `return XBackend`)."""
    names = b"|".join(sorted({b.name.encode() for b in backends}))
    return re.compile(rb"(?:=|\breturn)\s*(?:" + names + rb")\b\s*(?:$|[,)#])", re.M)


def owned_backends(
    index: ProjectIndex, modules: list[ModuleInfo], backends: list[ClassInfo]
) -> dict[int, ClassInfo]:
    """Backends a layer class (it builds a spec, or says its backend) holds as its own, by the
    id of that class: `def
    get_attn_backend(self): return XBackend`, `self.attn_backend = XBackend`, a class attribute
    `backend_cls = XBackend` or a parameter default `backend_cls=XBackend`: that layer's specs
    are viewed by it alone (a model's own cache layer: an indexer, a hidden-state cache)."""
    owned: dict[int, ClassInfo] = {}
    for module in modules:
        for cls in module.classes.values():
            if not is_layer_class(cls) and "get_attn_backend" not in cls.methods:
                continue  # a profiler's `backend=FlashAttentionBackend` is not a layer's own
            for node in _held_names(cls):
                target = index.resolve_static(module, node.value)
                if isinstance(target, ClassInfo) and target in backends and target is not cls:
                    if not any(k in backends for k in cls.mro()):  # a backend's own base
                        owned.setdefault(id(cls), target)
    return owned


def _held_names(cls: ClassInfo) -> list[cst.Name]:
    """Bare names a class holds as values: class attributes, `self.x = Name` and parameter
    defaults in its methods, `return Name` in `get_attn_backend`."""
    found: list[cst.Name] = []
    for statement in cls.node.body.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                value = small.value if isinstance(small, (cst.Assign, cst.AnnAssign)) else None
                if isinstance(value, cst.Name):
                    found.append(value)
    for name, method in cls.methods.items():
        params = method.node.params
        for param in [*params.params, *params.kwonly_params]:
            if isinstance(param.default, cst.Name):
                found.append(param.default)

        method.node.visit(_Holds(found, name == "get_attn_backend"))
    return found


class _Holds(cst.CSTVisitor):
    """`self.x = Name` in a method; `return Name` too when the method gives the backend."""

    def __init__(self, found: list[cst.Name], returns: bool) -> None:
        self.found = found
        self.returns = returns

    def visit_Assign(self, node: cst.Assign) -> None:
        if isinstance(node.value, cst.Name) and any(
            isinstance(t.target, cst.Attribute)
            and isinstance(t.target.value, cst.Name)
            and t.target.value.value == "self"
            for t in node.targets
        ):
            self.found.append(node.value)

    def visit_Return(self, node: cst.Return) -> None:
        if self.returns and isinstance(node.value, cst.Name):
            self.found.append(node.value)


class ViewInterpreter(PathInterpreter):
    """A partial run of the runner with the spec variable, the block count and the backend
    the call names held fixed: assignments to them are skipped."""

    pins: dict[str, Any] = {}
    replaced: dict[int, Any] = {}

    def eval(self, node: cst.BaseExpression, frame: Frame) -> Any:
        if self.replaced and id(node) in self.replaced:
            return self.replaced[id(node)]
        return super().eval(node, frame)

    def assign(self, target: cst.BaseExpression, value: Any, frame: Frame, source=None) -> None:
        if (
            type(target) is cst.Name
            and target.value in self.pins
            and frame.function is self.pinned_function
        ):
            frame.locals[target.value] = self.pins[target.value]
            return
        super().assign(target, value, frame, source)

    def mark_undecided(self, statements: list, frame: Frame, why: str, cause=None) -> None:
        if frame.function is self.pinned_function and self._join(statements, frame):
            return
        super().mark_undecided(statements, frame, why, cause)
        if frame.function is self.pinned_function:
            for name, value in self.pins.items():
                if name in frame.locals:
                    frame.locals[name] = value  # held, whatever the undecided block does

    def _join(self, statements: list, frame: Frame) -> bool:
        """An undecided `if` in the runner whose branches give its names the same values
        (0.22's `if group_id < len(kernel_block_sizes): num_blocks *= bs // kernel_bs` with no
        kernel split): those values, as either branch would. Only for branches binding plain
        local names, without a return; False when they differ or a branch fails."""
        if len(statements) != 1 or type(statements[0]) is not cst.If:
            return False
        statement = statements[0]
        names, self_attrs, returns, _ = assigned_targets(statements)
        if self_attrs or returns or not names:
            return False
        before = dict(frame.locals)
        outcomes = []
        for branch in (statement.body.body, statement.orelse):
            frame.locals = dict(before)
            try:
                if branch is None:
                    pass
                elif type(branch) is cst.If:
                    self.exec_statement(branch, frame)
                elif type(branch) is cst.Else:
                    self.exec_block(branch.body.body, frame)
                else:
                    self.exec_block(branch, frame)
            except (Infeasible, BudgetExceeded, ReturnSignal, BreakSignal, ContinueSignal):
                frame.locals = before
                return False
            outcomes.append(dict(frame.locals))
        frame.locals = before
        first, second = outcomes
        for name in names:
            a, b = first.get(name, ABSENT), second.get(name, ABSENT)
            if (
                a is ABSENT
                or is_unknown(a)
                or type(a) not in _PLAIN
                or a != b
                or type(a) is not type(b)
            ):
                return False
        for name in names:
            before[name] = first[name]
        return True

    def bind_abstract_parameters(self, function: FunctionInfo, frame: Frame, receiver: Any):
        super().bind_abstract_parameters(function, frame, receiver)
        if function is self.pinned_function:
            frame.locals.update(self.pins)

    pinned_function: FunctionInfo | None = None


class BackendEvaluator:
    """Every (layer spec, accepting backend, runner call) at every point."""

    def __init__(
        self,
        index: ProjectIndex,
        pack: VllmPack,
        limits: Limits,
        specs: list[ClassInfo],
        backends: list[ClassInfo],
        owned: dict[int, ClassInfo],
        registered: set[int] | None = None,
    ) -> None:
        self.index = index
        self.pack = pack
        self.limits = limits
        self.spec_ids = {id(c) for c in specs}
        self.backends = backends
        self.owned = owned
        # the selector's backends: those registered by import path, when the tree registers
        # any; else every backend no layer holds as its own
        taken = {id(b) for b in owned.values()}
        if registered:
            taken -= registered
        # a subclass of a layer's own backend is of that family too (MiniMax's indexer, for
        # another kernel), unless the registry names it
        taken |= {
            id(b)
            for b in backends
            if any(id(k) in taken for k in b.mro()) and id(b) not in (registered or set())
        }
        self.served = [b for b in backends if id(b) not in taken]
        self.generic = set(pack.mla_layers) | set(pack.non_mla_layers)
        self._demanded: dict[int, Any] = {}
        self._literals = {id(b): _shape_literals(b) for b in backends}

    def evaluate(self, layers: list[SiteResult], views: list[ViewSite]) -> list[ViewOutcome]:
        outcomes: list[ViewOutcome] = []
        if not views or not self.backends:
            return outcomes
        shape = self.pack.shape_dimensions
        for values in self.pack.points():
            built = [
                (result.site, outcome)
                for result in layers
                for outcome in result.points
                if outcome.values is values or outcome.values == values
            ]
            if not built:
                continue
            state = ModuleState()
            interpreter = self._interpreter(values, state)
            accepting: list[ClassInfo] | None = None
            undecided: list[tuple[ClassInfo, Unknown]] = []
            seen: set[tuple] = set()
            for site, outcome in built:
                if outcome.value is None or outcome.value.page_bytes is None:
                    continue
                partners = self._partners(site)
                if partners is None:  # the selector's layers: the backends accepting the point
                    if not outcome.reads & shape:
                        continue  # a spec not built from the model's shape: not this layer
                    if accepting is None:
                        accepting = []
                        for backend in self.served:
                            verdict = self._accepts(interpreter, backend, values)
                            if verdict is True:
                                accepting.append(backend)
                            elif is_unknown(verdict):
                                undecided.append((backend, verdict))
                    partners = accepting
                spec = self._spec_instance(interpreter, site)
                if spec is None:
                    continue
                key = (site.spec.name, outcome.value.fields, tuple(id(p) for p in partners))
                if key in seen:
                    continue
                seen.add(key)
                for backend in partners:
                    for view in views:
                        outcomes.append(
                            self._view(values, state, site, outcome.value, spec, backend, view)
                        )
                if partners is accepting:  # the selector's layer: the pairs not decided
                    for backend, unknown in undecided:
                        for view in views:
                            outcomes.append(
                                _not_paired(
                                    values, site, outcome.value, spec, backend, view, unknown
                                )
                            )
            state.release()
        return outcomes

    def _partners(self, site: SpecSite) -> list[ClassInfo] | None:
        """The backends a layer spec is viewed by: None for the selector's (the runner, the
        pack's attention layer classes), the backend a layer class names as its own, or none
        (a model's own cache layer whose backend is chosen elsewhere)."""
        owner = site.function.owner
        if owner is None or not is_layer_class(owner):
            return None
        for klass in owner.mro():
            if id(klass) in self.owned:
                return [self.owned[id(klass)]]
        if {k.name for k in owner.mro()} & self.generic:
            return None
        return []

    def _interpreter(self, values: dict[str, Any], state: ModuleState) -> ViewInterpreter:
        return ViewInterpreter(
            self.index,
            ConfigPoint(values),
            self.pack.reads,
            self.limits,
            self.spec_ids,
            state,
            frozenset(self.pack.config_getters),
        )

    def _spec_instance(self, interpreter: PathInterpreter, site: SpecSite) -> Instance | None:
        try:
            value = interpreter.run_to(site.function, site.call, receiver_of(site.function))
        except (NotReached, RecursionError):
            return None
        return value if isinstance(value, Instance) else None

    # ---- which backends serve a point -----------------------------------------------------
    def _accepts(self, interpreter: PathInterpreter, backend: ClassInfo, values: dict) -> Any:
        """Does the backend declare it serves this point: True, False, or Unknown (a
        declaration that cannot be evaluated: the pair is counted and listed, not compared).
        What it does not declare, it accepts."""
        use_mla = values.get("use_mla")
        mla = self._ask(interpreter, backend, "is_mla", [])
        if mla is ABSENT:
            mla = stores_one_latent(backend)
        if not isinstance(mla, bool):
            return _undecided(backend, "is_mla()", mla)
        if mla != use_mla:
            return False
        sizes = self._ask(interpreter, backend, "get_supported_head_sizes", [])
        if sizes is not ABSENT:
            if not isinstance(sizes, (list, tuple)):
                return _undecided(backend, "get_supported_head_sizes()", sizes)
            if sizes and values.get("head_size") not in sizes:
                return False
        dtypes = self._ask(interpreter, backend, "get_supported_dtypes", [])
        if dtypes is ABSENT:
            dtypes = self._class_value(interpreter, backend, "supported_dtypes")
        if dtypes is not ABSENT:
            if not isinstance(dtypes, (list, tuple)):
                return _undecided(backend, "its supported dtypes", dtypes)
            if values.get("model_dtype") not in dtypes:
                return False
        cache_dtype = values.get("cache_dtype")
        demanded = self._demanded.get(id(backend), ABSENT)
        if demanded is ABSENT:
            demanded = self._demanded[id(backend)] = impl_demands(self.index, backend)
        if demanded is not None and cache_dtype not in demanded:
            return False  # its attention impl raises on any other cache dtype
        supports = self._ask(interpreter, backend, "supports_kv_cache_dtype", [cache_dtype])
        if supports is not ABSENT:
            if not isinstance(supports, bool):
                return _undecided(backend, f"supports_kv_cache_dtype({cache_dtype!r})", supports)
            return supports
        # no declaration (vLLM 0.11): a cache dtype a backend's shape names as its own packed
        # format ("fp8_ds_mla") is served only by the backends naming it
        named = set().union(*self._literals.values()) if self._literals else set()
        return cache_dtype not in named or cache_dtype in self._literals[id(backend)]

    def _ask(self, interpreter: PathInterpreter, backend: ClassInfo, name: str, args: list):
        """The backend's classmethod or staticmethod `name(*args)`; ABSENT when in-tree
        classes do not define it, Unknown when it cannot be evaluated."""
        if backend.find_method(name) is None:
            return ABSENT
        location = backend.module.parsed.location(backend.node)
        try:
            method = interpreter.get_attribute(ClassRef(backend), name, location)
            return interpreter.call(method, list(args), {}, location)
        except RecursionError:
            return Unknown("nesting too deep to follow", location)
        except (Infeasible, BudgetExceeded) as signal:  # it raises, or is too long to follow
            return Unknown(f"{name}: {signal.reason}", location)

    def _class_value(self, interpreter: PathInterpreter, backend: ClassInfo, name: str):
        for klass in backend.mro():
            if _assigns(klass, name):
                location = klass.module.parsed.location(klass.node)
                return interpreter.get_attribute(ClassRef(backend), name, location)
        return ABSENT

    # ---- one view ---------------------------------------------------------------------------
    def _view(self, values, state, site, spec_value, spec, backend, view) -> ViewOutcome:
        interpreter = self._interpreter(values, state)
        pins: dict[str, Any] = {view.spec_name: spec}
        for name, source in self.pack.view_pins.items():
            if source.startswith("spec."):
                if source[5:] in spec.attrs:
                    pins[name] = spec.attrs[source[5:]]
            elif source in values:
                pins[name] = values[source]
        interpreter.pins = pins
        interpreter.pinned_function = view.function
        receiver = view.call.func.value  # `attn_backend` in `attn_backend.get_kv_cache_shape`
        interpreter.replaced = {id(receiver): ClassRef(backend)}
        interpreter.replaced.update((id(division), BLOCKS) for division in view.blocks)
        interpreter.site_call = view.call  # the run stops there, with the arguments computed
        block = spec.attrs.get("block_size")
        base = dict(
            values=values,
            backend=backend,
            layer=site,
            view=view,
            spec_class=spec.cls.name,
            spec_page=spec_value.page_bytes,
            block_size=block if isinstance(block, int) else 0,
            spec_arithmetic=spec_value.arithmetic,
        )
        given: tuple[list, dict] | None = None
        try:
            interpreter.run_to(view.function, view.call, receiver_of(view.function))
            shape = Unknown("the runner's call was not made", view.location)
        except SiteReached as reached:
            given = (reached.args, reached.kwargs)
            passed = list(reached.args) + list(reached.kwargs.values())
            missing = next((a for a in passed if is_unknown(a)), None)
            if missing is not None:  # an argument the run could not compute: nor is the view
                shape = missing
            else:
                try:
                    shape = self._shape(interpreter, backend, reached, view)
                except NotReached as signal:  # the backend refuses the point: no pair there
                    unknown = _unknown(signal.reason)
                    return ViewOutcome(
                        **base, view_bytes=None, shape_text="", unknown=unknown, reached=False
                    )
        except NotReached as signal:
            unknown = _not(signal)
            return ViewOutcome(
                **base, view_bytes=None, shape_text="", unknown=unknown, reached=False
            )
        except RecursionError:
            shape = Unknown("nesting too deep to follow", view.location)
        dtype = spec.attrs.get("dtype")
        if isinstance(shape, (tuple, list)):
            shape = next((d for d in shape if is_unknown(d)), shape)
        if is_unknown(shape):
            return ViewOutcome(**base, view_bytes=None, shape_text="", unknown=shape)
        if not isinstance(shape, (tuple, list)) or not all(
            isinstance(d, int) and not isinstance(d, bool) for d in shape
        ):
            reason = f"{backend.name}.{SHAPE} gave {shape!r}, not a shape"
            return ViewOutcome(**base, view_bytes=None, shape_text="", unknown=_unknown(reason))
        if not is_dtype(dtype):
            reason = f"the spec's dtype is not known ({dtype!r})"
            return ViewOutcome(**base, view_bytes=None, shape_text="", unknown=_unknown(reason))
        total = math.prod(shape) * itemsize(dtype)
        text = f"({', '.join(map(str, shape))}) of {dtype_name(dtype)}"
        base["call_text"] = _call_text(backend, given)
        if total % BLOCKS:
            reason = f"the view {text} is not a whole number of blocks"
            return ViewOutcome(**base, view_bytes=None, shape_text=text, unknown=_unknown(reason))
        return ViewOutcome(**base, view_bytes=total // BLOCKS, shape_text=text)

    def _shape(self, interpreter, backend: ClassInfo, reached: SiteReached, view: ViewSite):
        """The backend's shape for the arguments the runner computed."""
        method = backend.find_method(SHAPE)
        if method is None:
            return Unknown(f"{backend.name} has no {SHAPE}", view.location)
        receiver = None if method.has_decorator("staticmethod") else ClassRef(backend)
        try:
            return interpreter.call_function(
                method, receiver, reached.args, reached.kwargs, view.location, method.owner
            )
        except Infeasible as signal:
            raise NotReached(f"{backend.name}.{SHAPE} refuses it: {signal.reason}") from None
        except BudgetExceeded as signal:
            return Unknown(signal.reason, signal.location)
        except RecursionError:
            return Unknown("nesting too deep to follow", view.location)


def _not_paired(values, site, spec_value, spec, backend, view, unknown) -> ViewOutcome:
    """A view not compared: whether the backend serves the point is not known."""
    block = spec.attrs.get("block_size")
    return ViewOutcome(
        values=values,
        backend=backend,
        layer=site,
        view=view,
        spec_class=spec.cls.name,
        spec_page=spec_value.page_bytes,
        block_size=block if isinstance(block, int) else 0,
        view_bytes=None,
        shape_text="",
        unknown=unknown,
        spec_arithmetic=spec_value.arithmetic,
    )


def _call_text(backend: ClassInfo, given: tuple[list, dict] | None) -> str:
    """`FlashMLASparseBackend.get_kv_cache_shape(7, 16, 1, 576, cache_dtype_str='fp8_ds_mla')`."""
    if given is None:
        return f"{backend.name}.{SHAPE}(...)"
    args, kwargs = given
    parts = [_argument(a) for a in args] + [f"{k}={_argument(v)}" for k, v in kwargs.items()]
    return f"{backend.name}.{SHAPE}({', '.join(parts)})"


def _argument(value: Any) -> str:
    return repr(value) if isinstance(value, str) else describe_value(value)


def _undecided(backend: ClassInfo, what: str, value: Any) -> Unknown:
    reason = value.reason if is_unknown(value) else f"it gives {value!r}"
    return Unknown(f"whether {backend.name} serves this point is not known: {what}: {reason}", None)


def _not(signal: NotReached) -> Unknown:
    return Unknown(f"the runner's call is not reached: {signal.reason}", None)


def _unknown(reason: str) -> Unknown:
    return Unknown(reason, None)


def impl_demands(index: ProjectIndex, backend: ClassInfo) -> frozenset[str] | None:
    """The cache dtypes the backend's attention impl accepts, when its `__init__` raises on
    any other (`if kv_cache_dtype != "fp8_ds_mla": raise ...`, also `self.kv_cache_dtype` and
    `not in (...)`); None when it demands none. The layer rewrites the configured dtype for
    such a backend (0.28: "auto" becomes "fp8_ds_mla"), so it never views another."""
    method = backend.find_method("get_impl_cls")
    if method is None:
        return None
    impls: list[ClassInfo] = []

    local: dict[str, tuple[str, str | None]] = {}  # names the method imports itself

    class Returns(cst.CSTVisitor):
        def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
            for bound, source, attr in import_bindings(method.module, node):
                local[bound] = (source, attr)

        def visit_Return(self, node: cst.Return) -> None:
            if isinstance(node.value, cst.Name):
                name = node.value.value
                if name in local:
                    target = index.resolve_import(*local[name], 1, method.module)
                else:
                    target = index.resolve_static(method.module, name)
                if isinstance(target, ClassInfo):
                    impls.append(target)

    method.node.visit(Returns())
    if len(impls) != 1:
        return None
    init = impls[0].find_method("__init__")
    if init is None:
        return None
    for statement in init.node.body.body:
        if not isinstance(statement, cst.If) or not _raises(statement.body):
            continue
        test = statement.test
        if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
            continue
        left, [part] = test.left, test.comparisons
        name = left.value if isinstance(left, cst.Name) else None
        if isinstance(left, cst.Attribute):
            name = left.attr.value
        if name is None or not name.endswith("cache_dtype"):
            continue
        if isinstance(part.operator, cst.NotEqual) and isinstance(
            part.comparator, cst.SimpleString
        ):
            return frozenset({part.comparator.evaluated_value})
        if isinstance(part.operator, cst.NotIn) and isinstance(
            part.comparator, (cst.Tuple, cst.List, cst.Set)
        ):
            texts = [e.value for e in part.comparator.elements]
            if texts and all(isinstance(t, cst.SimpleString) for t in texts):
                return frozenset(t.evaluated_value for t in texts)
    return None


def _raises(block: cst.BaseSuite) -> bool:
    body = block.body if isinstance(block, cst.IndentedBlock) else [block]
    for statement in body:
        if isinstance(statement, cst.SimpleStatementLine) and any(
            isinstance(small, cst.Raise) for small in statement.body
        ):
            return True
    return False


def _assigns(klass: ClassInfo, name: str) -> bool:
    for statement in klass.node.body.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                targets = []
                if isinstance(small, cst.Assign):
                    targets = [t.target for t in small.targets]
                elif isinstance(small, cst.AnnAssign):
                    targets = [small.target]
                if any(isinstance(t, cst.Name) and t.value == name for t in targets):
                    return True
    return False


def _shape_literals(backend: ClassInfo) -> set[str]:
    """The texts a backend's own `get_kv_cache_shape` compares its arguments with."""
    method = backend.find_method(SHAPE)
    found: set[str] = set()
    if method is None:
        return found

    class Texts(cst.CSTVisitor):
        def visit_Comparison(self, node: cst.Comparison) -> None:
            if len(node.comparisons) != 1 or not isinstance(
                node.comparisons[0].operator, cst.Equal
            ):
                return  # `!=` and `in` name what a backend refuses or groups, not its format
            for part in (node.left, node.comparisons[0].comparator):
                if isinstance(part, cst.SimpleString) and part.evaluated_value != "auto":
                    found.add(part.evaluated_value)

    method.node.visit(Texts())
    return found
