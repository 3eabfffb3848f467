"""The abstract interpreter: evaluates audited code over libcst trees for one config point.

It never imports or executes audited code. Known values are computed exactly; anything else
becomes Unknown with its reason. Work is bounded by `auditor.limits.Limits`.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import libcst as cst

from auditor.index import ClassInfo, FunctionInfo, ModuleInfo, ProjectIndex, import_bindings
from auditor.interpret import library, methods
from auditor.interpret.control import (
    BreakSignal,
    BudgetExceeded,
    ContinueSignal,
    Infeasible,
    ReturnSignal,
)
from auditor.interpret.library import ABSENT, CallContext
from auditor.interpret.scopes import (
    Frame,
    LazyImport,
    Thunk,
    assigned_targets,
    self_method_calls,
)
from auditor.interpret.values import (
    BoundBuiltin,
    ClassRef,
    ConfigDependency,
    ExternalRef,
    FunctionRef,
    Instance,
    Lambda,
    ModuleRef,
    SuperProxy,
    Unknown,
    is_unknown,
)
from auditor.limits import DEFAULT_LIMITS, Limits
from auditor.location import Location

BUILTIN_NAMES = frozenset(
    "int float bool str abs round divmod min max sum len range isinstance hasattr getattr type "
    "tuple list dict print super object Exception ValueError NotImplementedError".split()
)
CONSTANTS = {"True": True, "False": False, "None": None}

BINARY: dict[type, Callable[[Any, Any], Any]] = {
    cst.Add: operator.add,
    cst.Subtract: operator.sub,
    cst.Multiply: operator.mul,
    cst.FloorDivide: operator.floordiv,
    cst.Divide: operator.truediv,
    cst.Modulo: operator.mod,
    cst.Power: operator.pow,
    cst.LeftShift: operator.lshift,
    cst.RightShift: operator.rshift,
    cst.BitAnd: operator.and_,
    cst.BitOr: operator.or_,
    cst.BitXor: operator.xor,
}
COMPARE: dict[type, Callable[[Any, Any], Any]] = {
    cst.Equal: operator.eq,
    cst.NotEqual: operator.ne,
    cst.LessThan: operator.lt,
    cst.LessThanEqual: operator.le,
    cst.GreaterThan: operator.gt,
    cst.GreaterThanEqual: operator.ge,
    cst.Is: operator.is_,
    cst.IsNot: operator.is_not,
    cst.In: lambda a, b: a in b,
    cst.NotIn: lambda a, b: a not in b,
}
COMPARABLE = (int, float, bool, str, type(None), tuple, list, dict, frozenset)


class ConfigPoint:
    """The config values of one point; records which ones the code actually read."""

    def __init__(self, values: dict[str, Any]) -> None:
        self.values = dict(values)
        self.reads: set[str] = set()

    def read(self, name: str) -> Any:
        self.reads.add(name)
        return self.values[name]


class Interpreter:
    """Evaluates audited code for one config point. One instance per point: caches are per point."""

    def __init__(self, index: ProjectIndex, point: ConfigPoint, limits: Limits = DEFAULT_LIMITS):
        self.index = index
        self.point = point
        self.limits = limits
        self.steps = 0
        self.depth = 0
        self.call_sites: list[Location] = []
        self._module_namespaces: dict[int, dict] = {}
        self._class_namespaces: dict[int, dict] = {}

    # ---- bounds -------------------------------------------------------------------------
    def tick(self, location_of: Callable[[], Location]) -> None:
        self.steps += 1
        if self.steps > self.limits.max_steps_per_evaluation:
            raise BudgetExceeded(
                f"step budget of {self.limits.max_steps_per_evaluation} exhausted", location_of()
            )

    def bounded(self, value: Any, location: Location | None) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            if value.bit_length() > self.limits.max_int_bits:
                return Unknown(f"integer over {self.limits.max_int_bits} bits", location)
        if isinstance(value, float) and value != value:  # NaN
            return Unknown("not a number", location)
        return value

    # ---- namespaces ---------------------------------------------------------------------
    def module_namespace(self, module: ModuleInfo) -> dict:
        namespace = self._module_namespaces.get(id(module))
        if namespace is None:
            namespace = {}
            self._module_namespaces[id(module)] = namespace
            frame = Frame(module, locals_=namespace, declarative=True)
            self.declare_block(module.parsed.tree.body, frame)
        return namespace

    def class_namespace(self, cls: ClassInfo) -> dict:
        namespace = self._class_namespaces.get(id(cls))
        if namespace is None:
            namespace = {}
            self._class_namespaces[id(cls)] = namespace
            frame = Frame(cls.module, locals_=namespace, declarative=True, class_body=cls)
            body = cls.node.body
            statements = body.body if isinstance(body, cst.IndentedBlock) else [body]
            self.declare_block(statements, frame)
        return namespace

    def declare_block(self, statements, frame: Frame) -> None:
        """Run a module or class body: bind definitions and imports, defer assignments."""
        for statement in statements:
            try:
                self.declare_statement(statement, frame)
            except (Infeasible, ReturnSignal, BreakSignal, ContinueSignal):
                continue

    def declare_statement(self, statement: cst.CSTNode, frame: Frame) -> None:
        module = frame.module
        if isinstance(statement, cst.FunctionDef):
            if frame.class_body is not None:
                frame.locals[statement.name.value] = frame.class_body.methods.get(
                    statement.name.value
                )
            else:
                info = module.functions.get(statement.name.value)
                if info is None or info.node is not statement:
                    info = FunctionInfo(
                        statement.name.value, statement.name.value, module, statement
                    )
                frame.locals[statement.name.value] = FunctionRef(info)
            return
        if isinstance(statement, cst.ClassDef):
            info = module.classes.get(statement.name.value)
            if info is not None and info.node is statement:
                frame.locals[statement.name.value] = ClassRef(info)
            else:
                frame.locals[statement.name.value] = Unknown(
                    "nested or conditional class definition", module.parsed.location(statement)
                )
            return
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, (cst.Import, cst.ImportFrom)):
                    self.bind_import(small, frame)
                elif isinstance(small, cst.Assign) and all(
                    isinstance(t.target, cst.Name) for t in small.targets
                ):
                    for target in small.targets:
                        frame.locals[target.target.value] = Thunk(small.value, frame)
                elif isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    if small.value is not None:
                        frame.locals[small.target.value] = Thunk(small.value, frame)
                elif isinstance(small, (cst.Assign, cst.AugAssign, cst.AnnAssign)):
                    self.exec_small(small, frame)
            return
        if isinstance(statement, cst.If):
            verdict = self.truth(self.eval(statement.test, frame))
            if verdict is None:
                self.declare_undecided(statement, frame)
            elif verdict:
                self.declare_block(statement.body.body, frame)
            elif isinstance(statement.orelse, cst.If):
                self.declare_statement(statement.orelse, frame)
            elif isinstance(statement.orelse, cst.Else):
                self.declare_block(statement.orelse.body.body, frame)
            return
        if isinstance(statement, cst.Try):
            self.declare_block(statement.body.body, frame)
            for handler in statement.handlers:  # fallbacks bind only what the body did not
                side = Frame(
                    frame.module, locals_={}, declarative=True, class_body=frame.class_body
                )
                side.parent_scope = frame.locals
                self.declare_block(handler.body.body, side)
                for name, value in side.locals.items():
                    frame.locals.setdefault(name, value)
            return
        if isinstance(statement, (cst.For, cst.While, cst.With, cst.Match)):
            self.mark_undecided([statement], frame, "module-level loop or block not followed")

    def declare_undecided(self, statement: cst.If, frame: Frame) -> None:
        """An undecidable module-level `if`: definitions and imports in one branch only are kept."""
        reason = self.eval(statement.test, frame)
        branches: list[list] = []
        current: cst.CSTNode | None = statement
        while isinstance(current, cst.If):
            branches.append(list(current.body.body))
            current = current.orelse
        if isinstance(current, cst.Else):
            branches.append(list(current.body.body))
        bound_in: dict[str, int] = {}
        for branch in branches:
            for name in set(assigned_targets(branch)[0]):
                bound_in[name] = bound_in.get(name, 0) + 1
        location = frame.module.parsed.location(statement.test)
        why = reason.reason if is_unknown(reason) else "undecidable condition"
        for branch in branches:
            side = Frame(frame.module, locals_={}, declarative=True, class_body=frame.class_body)
            side.parent_scope = frame.locals
            self.declare_block(branch, side)
            for name, value in side.locals.items():
                if (
                    bound_in.get(name, 0) > 1
                    or len(branches) == 1
                    and not isinstance(value, (LazyImport, FunctionRef, ClassRef))
                ):
                    frame.locals[name] = Unknown(
                        f"bound under an undecided condition: {why}", location
                    )
                else:
                    frame.locals.setdefault(name, value)

    def bind_import(self, statement: cst.Import | cst.ImportFrom, frame: Frame) -> None:
        for bound, source, attr in import_bindings(frame.module, statement):
            frame.locals[bound] = LazyImport(source, attr, frame.module)

    def resolve_import(self, lazy: LazyImport, location: Location) -> Any:
        module = self.index.find_module(lazy.source, lazy.near) if lazy.source else None
        if lazy.attr is None:
            return ModuleRef(module) if module is not None else ExternalRef(lazy.source)
        if module is None:
            submodule = self.index.find_module(f"{lazy.source}.{lazy.attr}", lazy.near)
            if submodule is not None:
                return ModuleRef(submodule)
            return library.external_attribute(lazy.source, lazy.attr)
        found = self.module_attribute(module, lazy.attr, location)
        return found

    def module_attribute(self, module: ModuleInfo, name: str, location: Location) -> Any:
        found = self.module_member(module, name, location, set())
        if found is ABSENT:
            return Unknown(f"module {module.name} has no name {name!r}", location)
        return found

    def module_member(self, module: ModuleInfo, name: str, location: Location, seen: set) -> Any:
        """A module's name: its own bindings, then `from x import *` sources, then submodules."""
        if id(module) in seen:
            return ABSENT
        seen.add(id(module))
        namespace = self.module_namespace(module)
        if name in namespace:
            return self.force(namespace, name, location)
        if not name.startswith("_"):
            for source in module.star_imports:
                star = self.index.find_module(source, module)
                if star is not None:
                    found = self.module_member(star, name, location, seen)
                    if found is not ABSENT:
                        return found
        submodule = self.index.find_module(f"{module.name}.{name}", module)
        return ModuleRef(submodule) if submodule is not None else ABSENT

    def force(self, namespace: dict, name: str, location: Location) -> Any:
        """Evaluate a deferred binding (assignment thunk or import) on first use."""
        value = namespace[name]
        if isinstance(value, Thunk):
            if value.evaluating:
                return Unknown(f"{name} is defined in terms of itself", location)
            value.evaluating = True
            try:
                result = self.eval(value.node, value.frame)
            finally:
                value.evaluating = False
            namespace[name] = result
            return result
        if isinstance(value, LazyImport):
            if value.resolving:
                return Unknown(f"circular import of {name}", location)
            value.resolving = True
            try:
                result = self.resolve_import(value, location)
            finally:
                value.resolving = False
            namespace[name] = result
            return result
        if isinstance(value, ConfigDependency):
            result = self.point.read(value.name)
            namespace[name] = result
            return result
        return value

    def lookup_name(self, name: str, frame: Frame, node: cst.CSTNode) -> Any:
        if name in CONSTANTS:
            return CONSTANTS[name]
        scopes = [frame.locals]
        if frame.parent_scope is not None:
            scopes.append(frame.parent_scope)
        module_scope = self.module_namespace(frame.module)
        scopes.append(module_scope)
        for scope in scopes:
            if name in scope:
                value = scope[name]
                if isinstance(value, (Thunk, LazyImport, ConfigDependency)):
                    return self.force(scope, name, frame.module.parsed.location(node))
                return value
        location = frame.module.parsed.location(node)
        if frame.module.star_imports:
            found = self.module_member(frame.module, name, location, set())
            if found is not ABSENT:
                return found
        if name in BUILTIN_NAMES:
            return ExternalRef(f"builtins.{name}")
        return Unknown(f"name {name!r} is not defined", location)

    # ---- attributes ---------------------------------------------------------------------
    def lookup_attribute(self, obj: Any, name: str, location: Location) -> Any:
        """The attribute's value, ABSENT when it certainly does not exist, or Unknown."""
        if is_unknown(obj):
            return obj
        if isinstance(obj, Instance):
            return self.instance_attribute(obj, name, location)
        if isinstance(obj, ClassRef):
            return self.class_attribute(obj.cls, name, location, receiver=obj)
        if isinstance(obj, SuperProxy):
            return self.super_attribute(obj, name, location)
        if isinstance(obj, ModuleRef):
            return self.module_member(obj.module, name, location, set())
        if isinstance(obj, ExternalRef):
            return library.external_attribute(obj.name, name)
        return library.value_attribute(obj, name, location)

    def get_attribute(self, obj: Any, name: str, location: Location) -> Any:
        value = self.lookup_attribute(obj, name, location)
        if value is ABSENT:
            owner = obj.cls.name if isinstance(obj, Instance) else type(obj).__name__
            return Unknown(f"{owner} has no attribute {name!r}", location)
        return value

    def instance_attribute(self, obj: Instance, name: str, location: Location) -> Any:
        if name in obj.attrs:
            return obj.attrs[name]
        found = self.class_attribute(obj.cls, name, location, receiver=obj)
        if found is ABSENT and obj.incomplete is not None:
            return Unknown(
                f"attribute {name!r} of {obj.cls.name} may be set on a path not followed: "
                f"{obj.incomplete.reason}",
                obj.incomplete.location or location,
            )
        return found

    def class_attribute(self, cls: ClassInfo, name: str, location: Location, receiver: Any) -> Any:
        for klass in cls.mro():
            found = self._member(klass, name, location, receiver)
            if found is not ABSENT:
                return found
        if cls.has_opaque_base():
            return Unknown(
                f"{name!r} may come from a base class outside the audited tree", location
            )
        return ABSENT

    def super_attribute(self, proxy: SuperProxy, name: str, location: Location) -> Any:
        receiver = proxy.obj
        cls = receiver.cls if isinstance(receiver, Instance) else receiver.cls
        mro = cls.mro()
        start = mro.index(proxy.after) + 1 if proxy.after in mro else len(mro)
        for klass in mro[start:]:
            found = self._member(klass, name, location, receiver)
            if found is not ABSENT:
                return found
        if name == "__init__":
            return ExternalRef("builtins.object.__init__")
        return Unknown(f"super().{name} is outside the audited tree", location)

    def _member(self, klass: ClassInfo, name: str, location: Location, receiver: Any) -> Any:
        namespace = self.class_namespace(klass)
        if name not in namespace:
            return ABSENT
        value = self.force(namespace, name, location)
        if not isinstance(value, FunctionInfo):
            return value
        if value.has_decorator("staticmethod"):
            return FunctionRef(value, None, klass)
        if value.has_decorator("classmethod"):
            owner = ClassRef(receiver.cls) if isinstance(receiver, Instance) else receiver
            return FunctionRef(value, owner, klass)
        if isinstance(receiver, Instance):
            if value.has_decorator("property", "cached_property", "functools.cached_property"):
                result = self.call_function(value, receiver, [], {}, location, klass)
                if value.has_decorator("cached_property", "functools.cached_property"):
                    receiver.attrs[name] = result
                return result
            return FunctionRef(value, receiver, klass)
        return FunctionRef(value, None, klass)

    # ---- calls --------------------------------------------------------------------------
    def call(self, func: Any, args: list, kwargs: dict, location: Location, arg_texts=()) -> Any:
        if is_unknown(func):
            return Unknown(f"call of an unresolved function: {func.reason}", func.location)
        if isinstance(func, FunctionRef):
            return self.call_function(func.function, func.bound, args, kwargs, location, func.owner)
        if isinstance(func, ClassRef):
            return self.instantiate(func.cls, args, kwargs, location)
        if isinstance(func, ExternalRef):
            if func.name == "builtins.object.__init__":
                return None
            return library.call_external(
                func.name, args, kwargs, CallContext(self, location, list(arg_texts))
            )
        if isinstance(func, BoundBuiltin):
            return methods.call_method(
                func, args, kwargs, CallContext(self, location, list(arg_texts))
            )
        if isinstance(func, Lambda):
            frame = Frame(func.module, locals_=dict(func.scope))
            for param, value in zip(func.node.params.params, args):
                frame.locals[param.name.value] = value
            return self.eval(func.node.body, frame)
        return Unknown(f"cannot call a {type(func).__name__}", location)

    def call_function(
        self,
        function: FunctionInfo,
        receiver: Any,
        args: list,
        kwargs: dict,
        location: Location,
        owner: ClassInfo | None = None,
        arg_sources: dict | None = None,
    ) -> Any:
        if self.depth >= self.limits.max_call_depth:
            return Unknown(f"call depth limit of {self.limits.max_call_depth} reached", location)
        if function.node.asynchronous is not None:
            return Unknown(f"async function {function.name} is not followed", location)
        frame = Frame(function.module, locals_={}, function=function)
        frame.owner = owner or function.owner
        frame.receiver = receiver
        positional = ([receiver] if receiver is not None else []) + list(args)
        self.bind_parameters(function, frame, positional, dict(kwargs), location)
        if arg_sources:
            self.bind_sources(function, frame, arg_sources, receiver is not None)
        self.depth += 1
        self.call_sites.append(location)
        try:
            self.exec_block(function.node.body.body, frame)
            result = None
        except ReturnSignal as signal:
            result = signal.value
        finally:
            self.depth -= 1
            self.call_sites.pop()
        if frame.undecided_return is not None:
            return frame.undecided_return
        return result

    def bind_sources(
        self, function: FunctionInfo, frame: Frame, sources: dict, bound: bool
    ) -> None:
        """Remember each parameter's argument expression, so shapes can be shown as arithmetic."""
        params = function.node.params
        ordered = [p.name.value for p in list(params.posonly_params) + list(params.params)]
        if bound:
            ordered = ordered[1:]
        for key, source in sources.items():
            if isinstance(key, int):
                if key < len(ordered):
                    frame.sources[ordered[key]] = source
            else:
                frame.sources[key] = source

    def bind_parameters(
        self, function: FunctionInfo, frame: Frame, args: list, kwargs: dict, location
    ):
        params = function.node.params
        ordered = list(params.posonly_params) + list(params.params)
        definition = Frame(function.module, locals_={})
        for param in ordered:
            name = param.name.value
            if args:
                frame.locals[name] = args.pop(0)
            elif name in kwargs:
                frame.locals[name] = kwargs.pop(name)
            elif param.default is not None:
                frame.locals[name] = self.eval(param.default, definition)
            else:
                frame.locals[name] = Unknown(
                    f"missing argument {name!r} to {function.name}()", location
                )
        if isinstance(params.star_arg, cst.Param):
            frame.locals[params.star_arg.name.value] = tuple(args)
        for param in params.kwonly_params:
            name = param.name.value
            if name in kwargs:
                frame.locals[name] = kwargs.pop(name)
            elif param.default is not None:
                frame.locals[name] = self.eval(param.default, definition)
            else:
                frame.locals[name] = Unknown(
                    f"missing argument {name!r} to {function.name}()", location
                )
        if params.star_kwarg is not None:
            frame.locals[params.star_kwarg.name.value] = dict(kwargs)

    def instantiate(
        self, cls: ClassInfo, args: list, kwargs: dict, location: Location, arg_sources=None
    ) -> Any:
        instance = Instance(cls)
        init = cls.find_method("__init__")
        if init is not None:
            owner = next(
                k for k in cls.mro() if init.name in k.methods and k.methods[init.name] is init
            )
            result = self.call_function(init, instance, args, kwargs, location, owner, arg_sources)
            if is_unknown(result) and instance.incomplete is None:
                instance.incomplete = result
        elif any(k.node.decorators and _is_dataclass(k) for k in cls.mro()):
            self.init_dataclass(instance, args, kwargs, location)
        elif cls.has_opaque_base():
            instance.incomplete = Unknown(
                f"{cls.name} is constructed by a base class outside the audited tree", location
            )
        return instance

    def init_dataclass(self, instance: Instance, args: list, kwargs: dict, location: Location):
        fields: list[tuple[str, cst.BaseExpression | None, ClassInfo]] = []
        for klass in reversed(instance.cls.mro()):
            for statement in klass.node.body.body:
                if isinstance(statement, cst.SimpleStatementLine):
                    for small in statement.body:
                        if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                            fields = [f for f in fields if f[0] != small.target.value]
                            fields.append((small.target.value, small.value, klass))
        args = list(args)
        for name, default, klass in fields:
            if args:
                instance.attrs[name] = args.pop(0)
            elif name in kwargs:
                instance.attrs[name] = kwargs[name]
            elif default is not None:
                frame = Frame(klass.module, locals_={})
                instance.attrs[name] = self.eval(default, frame)

    # ---- statements ---------------------------------------------------------------------
    def exec_block(self, statements, frame: Frame) -> None:
        for statement in statements:
            self.exec_statement(statement, frame)

    def exec_statement(self, statement: cst.CSTNode, frame: Frame) -> None:
        self.tick(lambda: frame.module.parsed.location(statement))
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                self.exec_small(small, frame)
        elif isinstance(statement, cst.If):
            test = self.eval(statement.test, frame)
            verdict = self.truth(test)
            if verdict is None:
                why = test.reason if is_unknown(test) else "condition cannot be decided"
                self.mark_undecided([statement], frame, why)
            elif verdict:
                self.exec_block(statement.body.body, frame)
            elif isinstance(statement.orelse, cst.If):
                self.exec_statement(statement.orelse, frame)
            elif isinstance(statement.orelse, cst.Else):
                self.exec_block(statement.orelse.body.body, frame)
        elif isinstance(statement, cst.For):
            self.exec_for(statement, frame)
        elif isinstance(statement, cst.While):
            self.exec_while(statement, frame)
        elif isinstance(statement, cst.With):
            for item in statement.items:
                if item.asname is not None:
                    self.assign(item.asname.name, Unknown("context manager value", None), frame)
            self.exec_block(statement.body.body, frame)
        elif isinstance(statement, cst.Try):
            try:
                self.exec_block(statement.body.body, frame)
            except Infeasible as signal:
                if not statement.handlers:
                    raise
                # a handler may catch it: what the try/except assigns is undecided, not infeasible
                self.mark_undecided([statement], frame, f"exception may be caught: {signal.reason}")
                return
            if statement.orelse is not None:
                self.exec_block(statement.orelse.body.body, frame)
            if statement.finalbody is not None:
                self.exec_block(statement.finalbody.body.body, frame)
        elif isinstance(statement, cst.FunctionDef):
            info = FunctionInfo(statement.name.value, statement.name.value, frame.module, statement)
            frame.locals[statement.name.value] = FunctionRef(info)
        elif isinstance(statement, cst.ClassDef):
            frame.locals[statement.name.value] = Unknown(
                "class defined inside a function", frame.module.parsed.location(statement)
            )
        else:
            self.mark_undecided([statement], frame, f"{type(statement).__name__} is not followed")

    def exec_for(self, statement: cst.For, frame: Frame) -> None:
        iterable = self.eval(statement.iter, frame)
        if isinstance(iterable, dict):
            iterable = list(iterable)
        if not isinstance(iterable, (list, tuple, str)):
            why = iterable.reason if is_unknown(iterable) else "loop over a value not modelled"
            self.mark_undecided([statement], frame, why)
            return
        if len(iterable) > self.limits.max_loop_iterations:
            self.mark_undecided([statement], frame, "loop over too many items")
            return
        for item in iterable:
            self.assign(statement.target, item, frame)
            try:
                self.exec_block(statement.body.body, frame)
            except BreakSignal:
                return
            except ContinueSignal:
                continue
        if statement.orelse is not None:
            self.exec_block(statement.orelse.body.body, frame)

    def exec_while(self, statement: cst.While, frame: Frame) -> None:
        for _ in range(self.limits.max_loop_iterations):
            test = self.eval(statement.test, frame)
            verdict = self.truth(test)
            if verdict is None:
                why = test.reason if is_unknown(test) else "loop condition cannot be decided"
                self.mark_undecided([statement], frame, why)
                return
            if not verdict:
                return
            try:
                self.exec_block(statement.body.body, frame)
            except BreakSignal:
                return
            except ContinueSignal:
                continue
        self.mark_undecided(
            [statement], frame, f"loop ran past {self.limits.max_loop_iterations} iterations"
        )

    def mark_undecided(self, statements: list, frame: Frame, why: str) -> None:
        """A block the interpreter could not follow: everything it might assign becomes Unknown."""
        location = frame.module.parsed.location(statements[0])
        unknown = Unknown(f"set on a path that could not be decided: {why}", location)
        names, self_attrs, returns, calls = assigned_targets(statements)
        for name in names:
            frame.locals[name] = unknown
        receiver = frame.receiver
        if isinstance(receiver, Instance):
            self_attrs = self_attrs + self.attributes_set_by_calls(receiver, statements)
            for attr in self_attrs:
                receiver.attrs[attr] = unknown
            if calls and receiver.incomplete is None:
                receiver.incomplete = unknown
        if returns and frame.undecided_return is None and not frame.declarative:
            frame.undecided_return = Unknown(
                f"return value depends on an undecided path: {why}", location
            )

    def attributes_set_by_calls(self, receiver: Instance, statements: list) -> list[str]:
        """`self.` attributes that the methods called from a block may set (a few levels deep).

        So a buffer built by `self._create_buffers()` under an undecided branch is reported as
        Unknown instead of silently keeping an earlier placeholder value.
        """
        found: list[str] = []
        seen: set[str] = set()
        pending = [(name, 0) for name in self_method_calls(statements)]
        while pending:
            name, depth = pending.pop()
            if name in seen or depth > 4:
                continue
            seen.add(name)
            method = receiver.cls.find_method(name)
            if method is None:
                continue
            body = method.node.body.body
            found.extend(assigned_targets(body)[1])
            pending.extend((callee, depth + 1) for callee in self_method_calls(body))
        return found

    def exec_small(self, small: cst.BaseSmallStatement, frame: Frame) -> None:
        module = frame.module
        if isinstance(small, cst.Expr):
            value = self.eval(small.value, frame)
            if is_unknown(value) and isinstance(small.value, cst.Call):
                if isinstance(frame.receiver, Instance) and frame.receiver.incomplete is None:
                    if value.reason.startswith("call of an unresolved function"):
                        frame.receiver.incomplete = value
        elif isinstance(small, cst.Assign):
            value = self.eval(small.value, frame)
            for target in small.targets:
                self.assign(target.target, value, frame, small.value)
        elif isinstance(small, cst.AnnAssign):
            if small.value is not None:
                self.assign(small.target, self.eval(small.value, frame), frame, small.value)
        elif isinstance(small, cst.AugAssign):
            current = self.eval(small.target, frame)
            operand = self.eval(small.value, frame)
            op_type = _AUG_TO_BINARY.get(type(small.operator))
            value = self.binary(op_type, current, operand, module.parsed.location(small))
            self.assign(small.target, value, frame)
        elif isinstance(small, cst.Return):
            raise ReturnSignal(self.eval(small.value, frame) if small.value is not None else None)
        elif isinstance(small, cst.Assert):
            verdict = self.truth(self.eval(small.test, frame))
            if verdict is False:
                self.fail(frame, f"assert {module.parsed.code(small.test)} fails", small)
        elif isinstance(small, cst.Raise):
            what = module.parsed.code(small.exc) if small.exc is not None else "raise"
            self.fail(frame, f"raises {what}", small)
        elif isinstance(small, (cst.Import, cst.ImportFrom)):
            self.bind_import(small, frame)
        elif isinstance(small, cst.Break):
            raise BreakSignal()
        elif isinstance(small, cst.Continue):
            raise ContinueSignal()
        elif isinstance(small, cst.Del):
            for name in assigned_targets([cst.SimpleStatementLine([small])])[0]:
                frame.locals.pop(name, None)

    def fail(self, frame: Frame, reason: str, node: cst.CSTNode) -> None:
        """A decided `raise` or failing `assert`: the config point is infeasible.

        Unless an undecided branch earlier in the function may already have returned: then
        the raise is not certain, and the call's result is Unknown instead.
        """
        location = frame.module.parsed.location(node)
        if frame.undecided_return is not None:
            raise ReturnSignal(frame.undecided_return)
        raise Infeasible(reason, location)

    def assign(self, target: cst.BaseExpression, value: Any, frame: Frame, source=None) -> None:
        module = frame.module
        if isinstance(target, cst.Name):
            frame.locals[target.value] = value
            if source is not None:
                frame.sources[target.value] = (source, frame)
            else:
                frame.sources.pop(target.value, None)
        elif isinstance(target, cst.Attribute):
            obj = self.eval(target.value, frame)
            if isinstance(obj, Instance):
                obj.attrs[target.attr.value] = value
                obj.set_sites[target.attr.value] = module.parsed.location(target)
        elif isinstance(target, (cst.Tuple, cst.List)):
            elements = [e.value for e in target.elements]
            if isinstance(value, (tuple, list)) and len(value) == len(elements):
                for element, item in zip(elements, value):
                    self.assign(element, item, frame)
            else:
                reason = (
                    value
                    if is_unknown(value)
                    else Unknown("cannot unpack value", module.parsed.location(target))
                )
                for element in elements:
                    self.assign(element, reason, frame)
        elif isinstance(target, cst.Subscript):
            container = self.eval(target.value, frame)
            if isinstance(container, (dict, list)) and len(target.slice) == 1:
                index = target.slice[0].slice
                if isinstance(index, cst.Index):
                    key = self.eval(index.value, frame)
                    if not is_unknown(key):
                        try:
                            container[key] = value
                        except (TypeError, IndexError):
                            pass

    # ---- expressions --------------------------------------------------------------------
    def eval(self, node: cst.BaseExpression, frame: Frame) -> Any:
        self.tick(lambda: frame.module.parsed.location(node))
        handler = _EXPRESSIONS.get(type(node))
        if handler is None:
            return Unknown(
                f"{type(node).__name__} expressions are not modelled",
                frame.module.parsed.location(node),
            )
        return handler(self, node, frame)

    def truth(self, value: Any) -> bool | None:
        """Python truthiness of a known value; None when it cannot be decided."""
        if is_unknown(value):
            return None
        if isinstance(value, (int, float, str, tuple, list, dict, type(None))):
            return bool(value)
        if isinstance(value, ExternalRef):
            return True if value.name == "typing.TYPE_CHECKING" else None
        if isinstance(value, (Instance, ClassRef, FunctionRef, ModuleRef)):
            return True
        from auditor.dtypes import is_dtype

        if is_dtype(value):
            return True
        return None

    def binary(self, op_type: type | None, left: Any, right: Any, location: Location) -> Any:
        if is_unknown(left):
            return left
        if is_unknown(right):
            return right
        function = BINARY.get(op_type) if op_type else None
        if function is None:
            return Unknown("operator not modelled", location)
        numeric = (int, float)
        if op_type is cst.Power:
            if not (isinstance(left, numeric) and isinstance(right, numeric)):
                return Unknown("** on non-numbers", location)
            if isinstance(right, int) and abs(right) > self.limits.max_power_exponent:
                return Unknown(f"exponent {right} is over the limit", location)
            if isinstance(left, int) and isinstance(right, int) and right > 0:
                # |left| >= 2 ** (bits - 1), so the power has at least (bits - 1) * right + 1
                # bits; below that bound it is cheap to compute and `bounded` decides
                if (abs(left).bit_length() - 1) * right >= self.limits.max_int_bits:
                    return Unknown(f"integer over {self.limits.max_int_bits} bits", location)
        if (
            op_type in (cst.LeftShift,)
            and isinstance(right, int)
            and right > self.limits.max_int_bits
        ):
            return Unknown(f"integer over {self.limits.max_int_bits} bits", location)
        sequences = (str, list, tuple)
        if op_type is cst.Multiply and (
            isinstance(left, sequences) or isinstance(right, sequences)
        ):
            sequence, count = (left, right) if isinstance(left, sequences) else (right, left)
            if isinstance(count, int) and (
                count > self.limits.max_sequence_length
                or len(sequence) * count > self.limits.max_sequence_length
            ):
                return Unknown("sequence repetition over the limit", location)
        if (
            op_type is cst.Add
            and isinstance(left, sequences)
            and isinstance(right, sequences)
            and len(left) + len(right) > self.limits.max_sequence_length
        ):
            return Unknown("sequence concatenation over the length limit", location)
        if not isinstance(left, (*COMPARABLE, float)) or not isinstance(
            right, (*COMPARABLE, float)
        ):
            return Unknown(
                f"arithmetic on {type(left).__name__} and {type(right).__name__}", location
            )
        try:
            result = function(left, right)
        except ZeroDivisionError:
            return Unknown("division by zero", location)
        except (TypeError, ValueError, OverflowError) as error:
            return Unknown(f"arithmetic error: {error}", location)
        return self.bounded(result, location)

    def compare(self, op_type: type, left: Any, right: Any, location: Location) -> Any:
        if is_unknown(left):
            return left
        if is_unknown(right):
            return right
        function = COMPARE[op_type]
        if op_type in (cst.Is, cst.IsNot):
            return function(left, right)
        from auditor.dtypes import is_dtype

        def plain(value: Any) -> bool:
            if isinstance(value, (tuple, list, frozenset)):
                return all(plain(v) for v in value)
            if isinstance(value, dict):
                return all(plain(k) for k in value)
            return (
                isinstance(value, COMPARABLE)
                or is_dtype(value)
                or isinstance(value, (Instance, ClassRef))
            )

        if not (plain(left) and plain(right)):
            return Unknown(
                f"comparison of {type(left).__name__} with {type(right).__name__} is not modelled",
                location,
            )
        try:
            return function(left, right)
        except TypeError as error:
            return Unknown(f"comparison error: {error}", location)


def _is_dataclass(cls: ClassInfo) -> bool:
    return cls.node.decorators and any(
        "dataclass" in cls.module.parsed.code(d.decorator) for d in cls.node.decorators
    )


_AUG_TO_BINARY = {
    cst.AddAssign: cst.Add,
    cst.SubtractAssign: cst.Subtract,
    cst.MultiplyAssign: cst.Multiply,
    cst.FloorDivideAssign: cst.FloorDivide,
    cst.DivideAssign: cst.Divide,
    cst.ModuloAssign: cst.Modulo,
    cst.PowerAssign: cst.Power,
    cst.LeftShiftAssign: cst.LeftShift,
    cst.RightShiftAssign: cst.RightShift,
    cst.BitAndAssign: cst.BitAnd,
    cst.BitOrAssign: cst.BitOr,
    cst.BitXorAssign: cst.BitXor,
}

from auditor.interpret.expressions import EXPRESSIONS as _EXPRESSIONS  # noqa: E402
