"""The abstract interpreter: evaluates audited code over libcst trees for one config point.

It never imports or executes audited code. Known values are computed exactly; anything else
becomes Unknown with its reason. Work is bounded by `auditor.limits.Limits`.
"""

from __future__ import annotations

import builtins
import re
from collections.abc import Callable
from typing import Any

import libcst as cst

from auditor.dtypes import is_dtype
from auditor.frontend.index import ClassInfo, FunctionInfo, ProjectIndex
from auditor.interpret import cli_args, enums, environment, lanes, library, methods, records
from auditor.interpret.control import (
    BudgetExceeded,
    Infeasible,
    ReturnSignal,
)
from auditor.interpret.library import ABSENT, CallContext
from auditor.interpret.namespaces import Namespaces
from auditor.interpret.operators import Operators
from auditor.interpret.scopes import (
    Frame,
    is_generator,
)
from auditor.interpret.statements import Statements
from auditor.interpret.values import (
    AttributeBag,
    BoundBuiltin,
    ClassRef,
    ExternalRef,
    FunctionRef,
    Instance,
    Lambda,
    MemberName,
    ModuleRef,
    OneShot,
    Partial,
    RuntimeObject,
    StandInSample,
    SuperProxy,
    Unknown,
    Why,
    is_unknown,
)
from auditor.limits import DEFAULT_LIMITS, Limits
from auditor.location import Location


class ConfigPoint:
    """The config values of one point; records which ones the code actually read."""

    def __init__(self, values: dict[str, Any]) -> None:
        self.values = dict(values)
        self.reads: set[str] = set()
        self.demands: set[tuple[str, Any]] = set()  # (dimension, literal) compared with it
        self.width: int | None = None  # lanes its values hold (lanes.py), once asked
        self.lane_demands: set[tuple[str, Any]] = set()  # those of lanes after the first
        # attributes of stand-ins a function run is given that the point has no value for
        # (environment.runtime_attribute): objects, or values evaluate.py samples next round
        self.pending: set[str] = set()
        # the text a pending attribute read as a key falls back to (`hf.get("torch_dtype",
        # "bfloat16")`): the value it is sampled with, as the code's own (evaluate.py)
        self.fallbacks: dict[str, str] = {}
        # command-line options the code parses with their choices (cli_args.py): name -> the
        # values the evaluation varies them over, the default first
        self.options: dict[str, tuple] = {}
        # (dimension, key) of each table a text value of the point was looked up in
        # (`KV_DTYPES[kv]`): the other texts the code accepts there (evaluate.py)
        self.lookups: set[tuple[str, str]] = set()
        self.unset: list[str] = []  # environment variables read as unset, no [switches] value
        # stand-ins' attributes read with a fallback that their class never gives its
        # instances (closed_classes.py): `getattr(cfg, "x", d)` is `d`, said with the figures
        self.absent: list[str] = []
        # getters with a [runtime.<getter>] table: dimensions are named `getter().attribute`
        self.runtime_getters = frozenset(n.split("().", 1)[0] for n in self.values if "()." in n)
        # the token and layer counts the build varies (evaluate.py): the point's, always
        self.counts: frozenset[str] = frozenset()

    def read(self, name: str) -> Any:
        self.reads.add(name)
        return self.values[name]

    def compared_with_literal(self, value: Any, literal: Any) -> None:
        """`page_size == 128`, `layout != "page_first"`: a value equal to this point's value of
        a dimension the code read, compared with a literal of its type. The literal is a value the code
        may demand (evaluate.py tries it when no point of the matrix is feasible). In a lanes
        build, as each build would note it (lanes.py)."""
        width = self.width
        if width is None:
            width = self.width = max(
                (len(v.items) for v in self.values.values() if type(v) is lanes.TokenLanes),
                default=0,
            )
        if not width:
            self._compared(value, literal, None)
            return
        for lane in range(width):  # the first lane's are the first build's (kept alone when
            # the build stops: the builds after it never ran), the others' count on success
            self._compared(lanes.lane_view(value, lane), literal, lane)

    def looked_up(self, value: Any, keys: Any) -> bool:
        """A text equal to this point's value of a dimension the code read, used as a key of
        a table of texts: its keys are texts the code accepts there. A number standing in
        for what the code uses as a text there (StandInSample) demands each of them."""
        if type(value) is StandInSample:
            texts = [key for key in keys if type(key) is str]
            for key in texts:
                self._compared(value, key, None)
            return bool(texts)
        if type(value) is not str:
            return False
        for name in self.reads:
            if self.values[name] == value and type(self.values[name]) is str:
                self.lookups.update((name, key) for key in keys if type(key) is str)
        return False

    def _compared(self, value: Any, literal: Any, lane: int | None) -> None:
        kind = type(literal)
        if type(value) is StandInSample and kind is str:  # a number standing in for what
            # the code compares with text (`cfg.cache_dtype == "int8"`): it may be that text
            for name in self.reads:
                if self.values[name] is value:
                    (self.lane_demands if lane else self.demands).add((name, literal))
            return
        own_kind = int if type(value) is StandInSample else type(value)
        if kind is not own_kind or kind not in (int, str) or value == literal:
            return
        for name in self.reads:  # a dimension the code read, holding that value
            own = self.values[name]
            if lane is not None:
                own = lanes.lane_view(own, lane)
            if (int if type(own) is StandInSample else type(own)) is kind and own == value:
                (self.lane_demands if lane else self.demands).add((name, literal))


class ModuleState:
    """The declared module and class namespaces of one config point, shared by the builds made
    at that point.

    The five builds of a config point differ only in their token and layer counts, which reach
    the code as constructor arguments: module and class bodies cannot read them, so each body is
    declared once per point instead of once per build (in a real process, pools of different
    sizes share module state too). Never share it across config points: module code reads the
    point's flags and switches. A name forced by one build records its config reads in that
    build's `ConfigPoint`; the caller unions the reads of all builds of the point.
    """

    def __init__(self) -> None:
        self.module_namespaces: dict[int, dict] = {}
        self.class_namespaces: dict[int, dict] = {}
        self.watch: lanes.Watch | None = None  # while lanes builds run (lanes.Watch)

    def release(self) -> None:
        """Empty the namespaces once the point is measured. Their values refer back to them
        (a deferred assignment holds the frame whose namespace holds it), and the command line
        runs with the cycle collector off: left alone, every config point's declarations would
        stay in memory until the run ends."""
        for namespace in (*self.module_namespaces.values(), *self.class_namespaces.values()):
            namespace.clear()
        self.module_namespaces.clear()
        self.class_namespaces.clear()


class Interpreter(Namespaces, Statements, Operators):
    """Evaluates audited code for one build at one config point. Caches are per point: builds
    of the same point may share their `ModuleState`."""

    # set while site_run.py runs the function holding a construction site
    site_call: cst.Call | None = None
    site_path: frozenset[int] = frozenset()  # ids of the nodes enclosing that call
    site_branches: list[str] | None = None  # undecided tests taken toward the call
    site_pin: tuple | None = None  # (function node, local name, device): the device's variable

    def __init__(
        self,
        index: ProjectIndex,
        point: ConfigPoint,
        limits: Limits = DEFAULT_LIMITS,
        state: ModuleState | None = None,
    ):
        self.index = index
        self.point = point
        self.limits = limits
        self.steps = 0
        self.depth = 0
        self.call_sites: list[Location] = []
        state = state if state is not None else ModuleState()
        self._module_namespaces = state.module_namespaces
        self._class_namespaces = state.class_namespaces
        self.watch = state.watch
        self._setters: dict[tuple[int, str], FunctionInfo | None] = {}

    # ---- bounds -------------------------------------------------------------------------
    def tick(self, location_of: Callable[[], Location]) -> None:
        self.steps += 1
        if self.steps > self.limits.max_steps_per_evaluation:
            raise BudgetExceeded(
                f"step budget of {self.limits.max_steps_per_evaluation} exhausted", location_of()
            )

    def bounded(self, value: Any, location: Location | None) -> Any:
        if type(value) is lanes.TokenLanes:
            if lanes.over_limit(value, self.limits.max_int_bits) or lanes.nan(value):
                raise lanes.Diverged  # a lane out of bounds: each build says so its own way
            return value
        if isinstance(value, int) and not isinstance(value, bool):
            if value.bit_length() > self.limits.max_int_bits:
                return Unknown(f"integer over {self.limits.max_int_bits} bits", location)
        if isinstance(value, float) and value != value:  # NaN
            return Unknown("not a number", location)
        return value

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
            return library.external_attribute(obj.name, name, location)
        if type(obj) is AttributeBag:  # (an option parsed: its value at the point)
            return cli_args.resolved(self.point, obj.attrs.get(name, ABSENT))
        if isinstance(obj, RuntimeObject):
            if obj.given and obj.klass is not None:
                # a composed run's stand-in (site_run.py): what its class computes from its
                # fields (`arch.attention_arch`) is run on it, and a dtype field is its class's
                # default; neither is sampled as a number
                computed = self._class_computed(obj, name, location)
                if computed is not ABSENT:
                    return computed
            found = environment.runtime_attribute(self.point, obj, name, location)
            if type(found) is MemberName:  # a field's enum member (`cfg.quant`), as named
                found = self.enum_member(found, location)
            if obj.klass is not None and (is_unknown(found) or found is environment.NOT_LISTED):
                computed = self._object_member(obj, name, location)
                if computed is not ABSENT:
                    return computed
            return ABSENT if found is environment.NOT_LISTED else found
        return library.value_attribute(obj, name, location)

    def get_attribute(self, obj: Any, name: str, location: Location) -> Any:
        value = self.lookup_attribute(obj, name, location)
        if value is ABSENT:
            owner = (
                obj.cls.name
                if isinstance(obj, Instance)
                else obj.path
                if isinstance(obj, RuntimeObject)
                else type(obj).__name__
            )
            return Unknown(f"{owner} has no attribute {name!r}", location)
        return value

    def instance_attribute(self, obj: Instance, name: str, location: Location) -> Any:
        if name in obj.attrs:
            return obj.attrs[name]
        if name == "__dict__" and obj.incomplete is None and _plain_object(obj.cls):
            return obj.attrs  # its attributes themselves: what is set there is set on it
        found = self.class_attribute(obj.cls, name, location, receiver=obj)
        if found is ABSENT and obj.incomplete is None and not name.startswith("__"):
            hook = self.class_attribute(obj.cls, "__getattr__", location, receiver=obj)
            if isinstance(hook, FunctionRef):  # `__getattr__`, asked what lookup lacks
                return self._hooked(hook, name, location)
        if found is ABSENT and obj.incomplete is not None:
            return Unknown(
                f"attribute {name!r} of {obj.cls.name} may be set on a path not followed: "
                f"{obj.incomplete.reason}",
                obj.incomplete.location or location,
                Why.UNDECIDED,
                obj.incomplete,
            )
        return found

    def _hooked(self, hook: FunctionRef, name: str, location: Location) -> Any:
        """What a class's `__getattr__` answers for `name`: ABSENT where it raises
        `AttributeError` (or a class of the tree deriving from it), which `getattr(x, n, d)`
        and `hasattr` take as "no such attribute"; a point refused where it raises a builtin
        exception of another kind; unknown where what it raises is not decided."""
        try:
            return self.call(hook, [name], {}, location)
        except Infeasible as raised:
            said = _RAISED.match(raised.reason)
            kind = said.group(1) if said else ""
            module = hook.function.module
            found = self.index.resolve_static(module, kind) if kind else None
            if _is_attribute_error(kind, found if isinstance(found, ClassInfo) else None):
                return ABSENT
            builtin = getattr(builtins, kind, None) if kind and "." not in kind else None
            if isinstance(builtin, type) and issubclass(builtin, BaseException):
                raise  # (another builtin exception: the code raises here too)
            return Unknown(
                f"{hook.function.name}() of {name!r} {raised.reason}: whether that means "
                "no such attribute is not decided",
                raised.location or location,
                Why.UNDECIDED,
            )

    def class_attribute(self, cls: ClassInfo, name: str, location: Location, receiver: Any) -> Any:
        for klass in cls.mro():
            found = self._member(klass, name, location, receiver)
            if found is not ABSENT:
                return found
        if cls.has_opaque_base():
            if name == "register_buffer" and isinstance(receiver, Instance):
                return BoundBuiltin(receiver, name)  # a torch module's (methods.py)
            if (
                name == "_replace"
                and isinstance(receiver, Instance)
                and records.is_named_tuple(cls)
            ):
                return BoundBuiltin(receiver, name)  # a NamedTuple's (methods.py)
            return Unknown(
                f"{name!r} may come from a base class outside the audited tree",
                location,
                Why.OUTSIDE_BASE,
            )
        return ABSENT

    def _class_computed(self, obj: RuntimeObject, name: str, location: Location) -> Any:
        """A property of a stand-in's class run on it, or a field's torch dtype or text default
        (`kv_cache_dtype: str = "auto"`, a mode the code compares and looks up, which a
        sampled number is not); ABSENT for anything else (a field's value is the point's)."""
        for klass in obj.klass.mro():
            namespace = self.class_namespace(klass)
            if name not in namespace:
                continue
            value = self.force(namespace, name, location)
            if isinstance(value, FunctionInfo) and value.is_property():
                return self.call_function(value, obj, [], {}, location, klass)
            # (a dtype field's default, or a text field's: a mode, never a sampled number)
            return value if is_dtype(value) or isinstance(value, str) else ABSENT
        return ABSENT

    def stand_in_method(
        self, obj: RuntimeObject, name: str, args: list, kwargs: dict, location: Location
    ) -> Any:
        """What a plain method of a stand-in's class gives, run on the stand-in; None where
        its class defines no such method, a class of the tree deriving from it defines it
        again (roles.py `_overridden`), or running it raises."""
        below = self.index.all_subclasses(obj.klass)
        if any(sub is not obj.klass and name in sub.methods for sub in below):
            return None  # (the object passed may be a subclass's: its own method runs)
        for klass in obj.klass.mro():
            namespace = self.class_namespace(klass)
            if name not in namespace:
                continue
            value = self.force(namespace, name, location)
            if not isinstance(value, FunctionInfo) or value.is_property():
                return None
            if value.has_decorator("staticmethod", "classmethod"):
                return None
            try:  # (a raise, as a base's `raise NotImplementedError` a subclass overrides:
                # no answer of the class's own, so the sample, as before)
                return self.call_function(value, obj, list(args), dict(kwargs), location, klass)
            except Infeasible:
                return None
        return None

    def _object_member(self, obj: RuntimeObject, name: str, location: Location) -> Any:
        """A property or method of a config object's class, run on the stand-in whose fields
        are config values (`spec.page_bytes` of `spec: KVSpec`), or the default its class
        gives a field the point has no value for (what such a property reads); ABSENT for
        anything else."""
        for klass in obj.klass.mro():
            namespace = self.class_namespace(klass)
            if name not in namespace:
                continue
            value = self.force(namespace, name, location)
            if isinstance(value, (bool, int, float, str)) or is_dtype(value):
                return value  # a field the point gives no value: its class's default
            if isinstance(value, Instance) and enums.is_enum(value.cls):
                return value  # the same, a member of an enum (`dtype: Kind = Kind.BF16`)
            if not isinstance(value, FunctionInfo) or value.has_decorator(
                "staticmethod", "classmethod"
            ):
                return ABSENT
            if value.is_property():
                return self.call_function(value, obj, [], {}, location, klass)
            return FunctionRef(value, obj, klass)
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
        if name == "register_buffer" and isinstance(receiver, Instance) and cls.has_opaque_base():
            return BoundBuiltin(receiver, name)  # a torch module's (methods.py)
        return Unknown(f"super().{name} is outside the audited tree", location, Why.OUTSIDE_BASE)

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
            if value.is_property():
                result = self.call_function(value, receiver, [], {}, location, klass)
                if value.has_decorator("cached_property"):  # functools.cached_property too
                    receiver.attrs[name] = result
                return result
            return FunctionRef(value, receiver, klass)
        return FunctionRef(value, None, klass)

    # ---- calls --------------------------------------------------------------------------
    def call(self, func: Any, args: list, kwargs: dict, location: Location, arg_texts=()) -> Any:
        if is_unknown(func):
            return Unknown(
                f"call of an unresolved function: {func.reason}",
                func.location,
                Why.UNRESOLVED_CALL,
                func,
            )
        if isinstance(func, FunctionRef):
            return self.call_function(
                func.function, func.bound, args, kwargs, location, func.owner, closure=func.closure
            )
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
        if isinstance(func, Partial):
            given = {**func.kwargs, **kwargs}
            return self.call(func.func, [*func.args, *args], given, location, arg_texts)
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
        closure: dict | None = None,
    ) -> Any:
        if receiver is None and function.owner is None and not args and not kwargs:
            answer = environment.probe_answer(self.point, function.name)
            if answer is not environment.NOT_A_PROBE:
                return answer
        if self.depth >= self.limits.max_call_depth:
            return Unknown(f"call depth limit of {self.limits.max_call_depth} reached", location)
        if function.node.asynchronous is not None:
            return Unknown(f"async function {function.name} is not followed", location)
        frame = Frame(function.module, locals_={}, function=function)
        frame.parent_scope = closure
        frame.owner = owner or function.owner
        frame.receiver = receiver
        positional = ([receiver] if receiver is not None else []) + list(args)
        self.bind_parameters(function, frame, positional, dict(kwargs), location)
        if arg_sources:
            self.bind_sources(function, frame, arg_sources, receiver is not None)
        generator = is_generator(function.node)
        if generator:  # run whole at the call: its items are what its `yield`s give
            frame.yielded = []
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
        if generator:
            result = OneShot(frame.yielded)
        if (
            type(receiver) is Instance
            and function.name == "__init__"
            and not receiver.given
            and function is receiver.cls.find_method("__init__")  # (not a base's, by super())
        ):
            params = function.node.params  # its numbers, as read (a deferred one is forced)
            receiver.given = {
                name: value
                for p in [*params.params, *params.kwonly_params]
                if isinstance(value := frame.locals.get(name := p.name.value), int)
                and not isinstance(value, bool)
            }
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
                    f"missing argument {name!r} to {function.name}()",
                    location,
                    Why.MISSING_ARGUMENT,
                    detail=name,
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
                    f"missing argument {name!r} to {function.name}()",
                    location,
                    Why.MISSING_ARGUMENT,
                    detail=name,
                )
        if params.star_kwarg is not None:
            frame.locals[params.star_kwarg.name.value] = dict(kwargs)

    def instantiate(
        self, cls: ClassInfo, args: list, kwargs: dict, location: Location, arg_sources=None
    ) -> Any:
        if enums.is_enum(cls):
            return enums.lookup(self, cls, args, location)
        instance = Instance(cls)
        init = cls.find_method("__init__")
        if init is not None:
            owner = next(
                k for k in cls.mro() if init.name in k.methods and k.methods[init.name] is init
            )
            result = self.call_function(init, instance, args, kwargs, location, owner, arg_sources)
            if is_unknown(result) and instance.incomplete is None:
                instance.incomplete = result
        elif records.is_dataclass_of_tree(cls):
            init_vars = self.init_dataclass(instance, args, kwargs, location)
            self.post_init(instance, location, init_vars)
        elif records.is_record_struct(cls):
            self.init_dataclass(instance, args, kwargs, location)
            records.remember_field_sources(instance, arg_sources)
        elif cls.has_opaque_base():
            instance.incomplete = Unknown(
                f"{cls.name} is constructed by a base class outside the audited tree",
                location,
                Why.OUTSIDE_BASE,
            )
        return instance

    def post_init(self, instance: Instance, location: Location, init_vars: list) -> None:
        """Python calls a dataclass's `__post_init__` once its fields are set, with the
        `InitVar` values (what it sets or changes is the object's, as `__init__`'s is)."""
        found = instance.cls.find_method("__post_init__")
        if found is None:
            return
        owner = next(k for k in instance.cls.mro() if k.methods.get(found.name) is found)
        result = self.call_function(found, instance, init_vars, {}, location, owner)
        if is_unknown(result) and instance.incomplete is None:
            instance.incomplete = result

    def init_dataclass(
        self, instance: Instance, args: list, kwargs: dict, location: Location
    ) -> list:
        """The fields a dataclass's (or a record's) generated `__init__` sets, as Python sets
        them: positional arguments skip `kw_only` fields, `init=False` fields take only their
        default, `field(default=...)` and `field(default_factory=...)` give the default, a
        `ClassVar` is no field. Returns the `InitVar` values, for `__post_init__`."""
        # a config built with its defaults alone (`KVCacheConfig()`) is the one the point
        # stands for; a record built with arguments (`Layout(dim, dtype)`) keeps its defaults
        point = self.point if not args and not kwargs else None
        args = list(args)
        init_vars = []
        for name, spec, klass, init_var in records.init_fields(instance.cls):
            path = f"{instance.cls.name}.{name}"
            value = _NOT_GIVEN
            if spec.init and args and not spec.kw_only:
                value = args.pop(0)
            elif spec.init and name in kwargs:
                value = kwargs[name]
            elif spec.init and not init_var and point is not None and path in point.values:
                # a field the config point gives (`KVCacheConfig.cache_dtype`, the stand-in a
                # pool was built from): a config the code builds with its defaults is that one
                value = point.read(path)
            elif spec.default is not None:
                value = self.eval(spec.default, self._class_scope(klass, name))
            elif spec.factory is not None:  # (a lambda's body sees the module, not the class)
                factory = self.eval(spec.factory, Frame(klass.module, locals_={}))
                value = self.call(factory, [], {}, location)
            if init_var:
                init_vars.append(
                    value
                    if value is not _NOT_GIVEN
                    else Unknown(f"InitVar {name!r} of {instance.cls.name} not given", location)
                )
            elif value is not _NOT_GIVEN:
                instance.attrs[name] = value
        return init_vars

    def _class_scope(self, klass: ClassInfo, field_name: str) -> Frame:
        """Where a field's default is evaluated: the names the class body binds above the
        field (`HEAD_DIM: ClassVar[int] = 128`), then its module's, as Python runs the body."""
        namespace = self.class_namespace(klass)
        above = {}
        for statement in klass.node.body.body:
            bound = _bound_by(statement)
            if field_name in bound and isinstance(statement, cst.SimpleStatementLine):
                break
            for each in bound:
                if each in namespace:
                    above[each] = namespace[each]
        frame = Frame(klass.module, locals_={})
        frame.parent_scope = above
        return frame


def _bound_by(statement: cst.CSTNode) -> list[str]:
    """The names a statement of a class body binds (assignments, definitions)."""
    if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
        return [statement.name.value]
    found = []
    if isinstance(statement, cst.SimpleStatementLine):
        for small in statement.body:
            if isinstance(small, cst.Assign):
                found += [t.target.value for t in small.targets if isinstance(t.target, cst.Name)]
            elif isinstance(small, (cst.AnnAssign, cst.AugAssign)) and isinstance(
                small.target, cst.Name
            ):
                found.append(small.target.value)
    return found


_NOT_GIVEN = object()  # a dataclass field the call gives no value and that has no default
_RAISED = re.compile(r"raises ([\w.]+)")


def _is_attribute_error(kind: str, cls: ClassInfo | None) -> bool:
    if kind in ("AttributeError", "builtins.AttributeError"):
        return True
    return cls is not None and any(
        base in ("AttributeError", "builtins.AttributeError")
        for klass in cls.mro()
        for base in klass.external_bases
    )


def _plain_object(cls: ClassInfo) -> bool:
    """A class whose objects keep every attribute the tree sets in their `__dict__`, and only
    those: no base outside the tree (an `nn.Module` keeps buffers in `_buffers`, and sets
    what the tree cannot see), no record base, no `__slots__`."""
    return (
        not cls.has_opaque_base()
        and not records.is_record_struct(cls)
        and not any(_declares_slots(klass) for klass in cls.mro())
    )


def _declares_slots(cls: ClassInfo) -> bool:
    return any(
        isinstance(small, (cst.Assign, cst.AnnAssign))
        and any(
            isinstance(t, cst.Name) and t.value == "__slots__"
            for t in (
                [a.target for a in small.targets]
                if isinstance(small, cst.Assign)
                else [small.target]
            )
        )
        for statement in cls.node.body.body
        if isinstance(statement, cst.SimpleStatementLine)
        for small in statement.body
    )
