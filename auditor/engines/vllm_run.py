"""Running vLLM code up to one expression, at one config point.

vLLM builds a layer's KV spec deep inside functions that also do everything else (a runner
method looping over the model's layers, a config hook that resolves the model class). Running
those functions whole would fail on the first thing outside the audited tree. Instead the
interpreter runs only the statements on the way to the expression: each statement before it in
every enclosing block (names it assigns are known or Unknown), each enclosing `if` decided at
the point (a branch not taken means the expression is not reached there), each enclosing loop
entered once with an abstract layer as its item. What the code reads from `vllm_config`, a
layer (`self.head_size`) or a config section is a config dimension of the vLLM rule pack.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import libcst as cst

from auditor.dtypes import is_dtype
from auditor.frontend.index import ClassInfo, FunctionInfo, ProjectIndex
from auditor.interpret.control import (
    BreakSignal,
    BudgetExceeded,
    ContinueSignal,
    Infeasible,
    ReturnSignal,
)
from auditor.interpret.library import ABSENT
from auditor.interpret.machine import ConfigPoint, Interpreter, ModuleState
from auditor.interpret.scopes import Frame
from auditor.interpret.values import (
    ClassRef,
    ExternalRef,
    FunctionRef,
    Tensor,
    Unknown,
    Why,
    is_unknown,
)
from auditor.limits import Limits
from auditor.location import Location

# parameter names that hold the whole config or one of its sections
CONFIG_ROOT = "vllm_config"
LAYER = "layer"


@dataclass(frozen=True)
class ConfigRef:
    """A path into the running config (`vllm_config.cache_config`) or an abstract layer
    (`layer`): its attributes are the rule pack's `reads`, or objects below them."""

    path: str


@dataclass(frozen=True)
class ConfigMethod:
    """A config method whose result is a dimension (`model_config.get_head_size()`)."""

    path: str


@dataclass(frozen=True, eq=False)
class LazySelf:
    """`self` of a method run partially: its attributes are found where the class assigns
    them (`self.x = ...` in its methods), run up to that assignment, or read from the pack
    for a layer class."""

    cls: ClassInfo
    path: str  # "layer" for a layer class, else "self"


class NotReached(Exception):  # noqa: N818 - a signal
    """The expression is not reached at this config point (a branch not taken, an early
    return, a failed assert)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class PathInterpreter(Interpreter):
    """The abstract interpreter with vLLM's config objects and partial runs."""

    def __init__(
        self,
        index: ProjectIndex,
        point: ConfigPoint,
        reads: dict[str, str],
        limits: Limits,
        layer_classes: set[int],
        state: ModuleState | None = None,
        config_getters: frozenset[str] = frozenset(),
    ) -> None:
        super().__init__(index, point, limits, state)
        self.config_getters = config_getters  # `get_current_vllm_config()`: the config
        self.reads = reads  # attribute path -> dimension name (or a fixed value key)
        # the paths with a read below them (`model_config` of `model_config.dtype`)
        self._sections = frozenset(
            key[:at] for key in reads for at, char in enumerate(key) if char == "."
        )
        self.layer_classes = layer_classes
        self._self_attributes: dict[tuple[int, str, str], Any] = {}
        self._partial_depth = 0

    # ---- config objects -----------------------------------------------------------------
    def config_read(self, path: str, location: Location | None) -> Any:
        """The value of a config path: its dimension's value, an object below it, or Unknown."""
        if path in self.reads:
            return self.point.read(self.reads[path])
        if f"{path}()" in self.reads:
            return ConfigMethod(f"{path}()")
        if path in self._sections:
            return ConfigRef(path)
        return Unknown(f"{path} is not a read of the vllm rule pack", location)

    def lookup_attribute(self, obj: Any, name: str, location: Location) -> Any:
        if isinstance(obj, ConfigRef):
            return self.config_read(f"{obj.path}.{name}", location)
        if isinstance(obj, LazySelf):
            return self.self_attribute(obj, name, location)
        return super().lookup_attribute(obj, name, location)

    def truth(self, value: Any) -> bool | None:
        if isinstance(value, (ConfigRef, LazySelf)):
            return True  # a config section or a layer object: truthy, as objects are
        return super().truth(value)

    def call_function(self, function: FunctionInfo, receiver: Any, *rest: Any, **named: Any):
        if receiver is None and function.name in self.config_getters:
            return ConfigRef(CONFIG_ROOT)
        return super().call_function(function, receiver, *rest, **named)

    def call(self, func: Any, args: list, kwargs: dict, location: Location, arg_texts=()) -> Any:
        if isinstance(func, ConfigMethod):
            return self.point.read(self.reads[func.path])
        if isinstance(func, ExternalRef) and func.name.rsplit(".", 1)[-1] in self.config_getters:
            return ConfigRef(CONFIG_ROOT)
        if isinstance(func, ExternalRef):
            special = self.library_call(func.name, args, kwargs, location)
            if special is not ABSENT:
                return special
        return super().call(func, args, kwargs, location, arg_texts)

    def library_call(self, name: str, args: list, kwargs: dict, location: Location) -> Any:
        """`torch.tensor([], dtype=d)`, as vLLM's `get_dtype_size` builds it (dataclass idioms,
        `object.__setattr__` and `dataclasses.replace`, are the interpreter's own)."""
        if name == "torch.tensor" and args == [[]] and "dtype" in kwargs:
            # `get_dtype_size(d) = torch.tensor([], dtype=d).element_size()`: an empty tensor
            dtype = kwargs["dtype"]
            if is_unknown(dtype):
                return dtype
            if is_dtype(dtype):
                return Tensor((0,), dtype, 0, location)
        return ABSENT

    # ---- self of a partially run method -------------------------------------------------
    def self_attribute(self, obj: LazySelf, name: str, location: Location) -> Any:
        path = f"{obj.path}.{name}"
        if obj.path == LAYER and (path in self.reads or f"{path}()" in self.reads):
            return self.config_read(path, location)
        key = (id(obj.cls), obj.path, name)
        if key in self._self_attributes:
            return self._self_attributes[key]
        self._self_attributes[key] = Unknown(f"self.{name} refers to itself", location)
        value = self._find_self_attribute(obj, name, location)
        self._self_attributes[key] = value
        return value

    def _find_self_attribute(self, obj: LazySelf, name: str, location: Location) -> Any:
        assignments = self_assignments(obj.cls, name)
        reasons: list[str] = []
        if self._partial_depth < 4:
            for method, value_node in assignments:
                self._partial_depth += 1
                try:
                    value = self.run_to(method, value_node, obj)
                except NotReached as signal:
                    reasons.append(signal.reason)
                    continue
                finally:
                    self._partial_depth -= 1
                return value
        elif assignments:
            return Unknown(f"self.{name}: partial runs nested too deep", location)
        found = self.class_attribute(obj.cls, name, location, receiver=ClassRef(obj.cls))
        if isinstance(found, FunctionRef) and found.bound is None and found.owner is not None:
            method = found.function
            if not method.has_decorator("staticmethod", "classmethod"):
                if method.has_decorator("property", "cached_property"):
                    return self.call_function(method, obj, [], {}, location, found.owner)
                return FunctionRef(method, obj, found.owner)
        if found is not ABSENT:
            return found
        if reasons:
            return Unknown(f"self.{name} is assigned on no path taken: {reasons[0]}", location)
        return Unknown(f"self.{name} is never assigned in {obj.cls.name}", location)

    # ---- partial runs -------------------------------------------------------------------
    def run_to(self, function: FunctionInfo, target: cst.BaseExpression, receiver: Any) -> Any:
        """The value of `target` (an expression inside `function`) when `function` runs at
        this point; NotReached when the point does not reach it."""
        path = path_to(function.node, target)
        if path is None:
            raise NotReached("expression not found in its function")
        frame = Frame(function.module, locals_={}, function=function)
        frame.owner = function.owner
        frame.receiver = receiver
        self.bind_abstract_parameters(function, frame, receiver)
        self.depth += 1
        try:
            return self._run_block(function.node.body.body, path, 0, frame, target)
        except (ReturnSignal, BreakSignal, ContinueSignal):
            raise NotReached("the function leaves before the expression") from None
        except Infeasible as signal:
            raise NotReached(f"not reached: {signal.reason}") from None
        except BudgetExceeded as signal:
            return Unknown(signal.reason, signal.location, Why.LIMIT)
        except RecursionError:
            return Unknown("nesting too deep to follow", None)
        finally:
            self.depth -= 1

    def bind_abstract_parameters(self, function: FunctionInfo, frame: Frame, receiver: Any):
        """Parameters of a function run without a caller: `self`, config sections, a layer's
        own dimensions (`head_size`), defaults; anything else Unknown."""
        params = function.node.params
        ordered = list(params.posonly_params) + list(params.params) + list(params.kwonly_params)
        for position, param in enumerate(ordered):
            name = param.name.value
            location = function.module.parsed.location(param)
            if position == 0 and receiver is not None and param in params.params[:1]:
                frame.locals[name] = receiver
            elif name == CONFIG_ROOT:
                frame.locals[name] = ConfigRef(CONFIG_ROOT)
            elif self.config_read(f"{CONFIG_ROOT}.{name}", None) == ConfigRef(
                f"{CONFIG_ROOT}.{name}"
            ):
                frame.locals[name] = ConfigRef(f"{CONFIG_ROOT}.{name}")
            elif f"{LAYER}.{name}" in self.reads and receiver_is_layer(receiver):
                frame.locals[name] = self.config_read(f"{LAYER}.{name}", location)
            elif param.default is not None:
                frame.locals[name] = self.eval(param.default, Frame(function.module, locals_={}))
            else:
                frame.locals[name] = Unknown(f"parameter {name!r} has no caller here", location)
        if isinstance(params.star_arg, cst.Param):
            frame.locals[params.star_arg.name.value] = Unknown("*args", None)
        if params.star_kwarg is not None:
            frame.locals[params.star_kwarg.name.value] = Unknown("**kwargs", None)

    def _run_block(self, statements, path: list, depth: int, frame: Frame, target) -> Any:
        on_path = path[depth]
        for statement in statements:
            if statement is on_path:
                return self._enter(statement, path, depth, frame, target)
            self.run_before(statement, frame)
        raise NotReached("expression not on this block")

    def run_before(self, statement: cst.CSTNode, frame: Frame) -> None:
        """Run a statement on the way. An `assert` or `raise` of the statement itself decides
        that the point does not get further; one inside a function it calls usually checks
        process state the pack does not model (`assert _PP is not None`): what the statement
        assigns is then undecided, and the run goes on."""
        try:
            self.exec_statement(statement, frame)
        except Infeasible as signal:
            if _within(frame.module.parsed.resolve_location(statement), signal.location):
                raise
            self.mark_undecided([statement], frame, f"a call fails: {signal.reason}")

    def _enter(self, statement: cst.CSTNode, path: list, depth: int, frame: Frame, target) -> Any:
        location = frame.module.parsed.location(statement)
        kind = type(statement)
        inner = path[depth + 1] if depth + 1 < len(path) else None
        if kind is cst.SimpleStatementLine:
            for small in statement.body:
                if small is inner:
                    if isinstance(small, (cst.Assign, cst.AnnAssign)) and target is small.value:
                        return self.eval(target, frame)
                    break
                self.exec_small(small, frame)
            return self.eval(target, frame)
        if kind is cst.If:
            test = self.eval(statement.test, frame)
            verdict = self.truth(test)
            in_body = inner is statement.body
            if verdict is None:
                why = test.reason if is_unknown(test) else "condition cannot be decided"
                cause = test if is_unknown(test) else None
                return Unknown(f"branch not decided: {why}", location, Why.UNDECIDED, cause)
            if in_body:
                if not verdict:
                    raise NotReached("branch not taken")
                return self._run_block(statement.body.body, path, depth + 2, frame, target)
            if verdict:
                raise NotReached("branch not taken")
            if isinstance(statement.orelse, cst.If):
                return self._enter(statement.orelse, path, depth + 1, frame, target)
            return self._run_block(statement.orelse.body.body, path, depth + 3, frame, target)
        if kind is cst.For:
            if inner is not statement.body:
                return Unknown("expression in a loop's header or else", location)
            self.assign(statement.target, abstract_item(statement.target), frame)
            return self._run_block(statement.body.body, path, depth + 2, frame, target)
        if kind in (cst.While, cst.With):
            if inner is not statement.body:
                return Unknown("expression in a loop or with header", location)
            if kind is cst.With:
                for item in statement.items:
                    if item.asname is not None:
                        self.assign(item.asname.name, Unknown("context manager value"), frame)
            return self._run_block(statement.body.body, path, depth + 2, frame, target)
        if kind is cst.Try:
            if inner is not statement.body:
                return Unknown("expression in an exception handler", location)
            return self._run_block(statement.body.body, path, depth + 2, frame, target)
        return Unknown(f"expression inside a {kind.__name__} is not followed", location)


def _within(outer: Location, inner: Location | None) -> bool:
    if inner is None or inner.path != outer.path:
        return False
    end = outer.end_line if outer.end_line is not None else outer.line
    return outer.line <= inner.line <= end


def receiver_is_layer(receiver: Any) -> bool:
    return isinstance(receiver, LazySelf) and receiver.path == LAYER


def abstract_item(target: cst.BaseExpression) -> Any:
    """The item a loop over the model's layers gives: a layer, or (name, layer)."""
    if isinstance(target, cst.Tuple) and len(target.elements) == 2:
        return (Unknown("layer name"), ConfigRef(LAYER))
    return ConfigRef(LAYER)


_PATHS: dict[int, tuple[cst.CSTNode, list | None]] = {}


def path_to(root: cst.CSTNode, target: cst.CSTNode) -> list | None:
    """The nodes from `root`'s body down to `target` (identity), or None (remembered)."""
    known = _PATHS.get(id(target))
    if known is not None and known[0] is target:
        return known[1]
    found = _search(root, target)
    _PATHS[id(target)] = (target, found)
    return found


def _search(root: cst.CSTNode, target: cst.CSTNode) -> list | None:
    """Depth first, each node's parent remembered (a trail copied per child was quadratic in
    a long `__init__`); the path without the function itself and its IndentedBlock."""
    parents: dict[int, cst.CSTNode] = {}
    stack: list[cst.CSTNode] = [root]
    while stack:
        node = stack.pop()
        if node is target:
            trail = []
            while node is not root:
                node = parents[id(node)]
                trail.append(node)
            trail.reverse()
            return trail[2:] + [target]
        for child in node.children:
            parents[id(child)] = node
            stack.append(child)
    return None


_ASSIGNMENTS: dict[int, tuple[ClassInfo, dict[str, list]]] = {}


def self_assignments(cls: ClassInfo, name: str) -> list[tuple[FunctionInfo, cst.BaseExpression]]:
    """Where a class (or a base) assigns `self.<name> = value`: `__init__` first."""
    found: list[tuple[FunctionInfo, cst.BaseExpression]] = []
    for klass in cls.mro():
        known = _ASSIGNMENTS.get(id(klass))
        if known is None or known[0] is not klass:
            known = (klass, _class_assignments(klass))
            _ASSIGNMENTS[id(klass)] = known
        found.extend(known[1].get(name, ()))
    return found


def _class_assignments(klass: ClassInfo) -> dict[str, list]:
    """Every `self.x = value` statement in a class's methods, by attribute name (walking
    statements only: expressions cannot hold an assignment statement)."""
    table: dict[str, list] = {}
    methods = sorted(klass.methods.values(), key=lambda m: m.name != "__init__")
    for method in methods:
        pending = list(method.node.body.body)
        while pending:
            statement = pending.pop(0)
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    targets: list = []
                    if isinstance(small, cst.Assign):
                        targets = [t.target for t in small.targets]
                    elif isinstance(small, cst.AnnAssign) and small.value is not None:
                        targets = [small.target]
                    for target in targets:
                        if (
                            isinstance(target, cst.Attribute)
                            and isinstance(target.value, cst.Name)
                            and target.value.value == "self"
                        ):
                            table.setdefault(target.attr.value, []).append((method, small.value))
            elif isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
                continue
            else:
                pending.extend(_blocks(statement))
    return table


def _blocks(statement: cst.CSTNode) -> list:
    """The statements directly inside a compound statement (bodies, else, handlers)."""
    inner: list = []
    for attribute in ("body", "orelse", "finalbody"):
        part = getattr(statement, attribute, None)
        if part is None:
            continue
        if isinstance(part, cst.If):
            inner.append(part)
            continue
        block = getattr(part, "body", None)
        if isinstance(block, cst.BaseSuite) or hasattr(block, "body"):
            block = block.body
        if isinstance(block, (list, tuple)):
            inner.extend(block)
    for handler in getattr(statement, "handlers", ()) or ():
        inner.extend(handler.body.body)
    return inner


def _is_self_attribute(node: cst.BaseExpression, name: str) -> bool:
    return (
        isinstance(node, cst.Attribute)
        and isinstance(node.value, cst.Name)
        and node.value.value == "self"
        and node.attr.value == name
    )
