"""Namespaces of modules and classes: declarations, imports, lazy values, name lookup.

A module or class body is declared, not executed: definitions and imports are bound, assignments
become thunks forced on first read, so one evaluation only pays for the names it uses.
"""

from __future__ import annotations

from typing import Any

import libcst as cst

from auditor.frontend.index import ClassInfo, FunctionInfo, ModuleInfo, import_bindings
from auditor.interpret import enums, library
from auditor.interpret.control import (
    BreakSignal,
    ContinueSignal,
    Infeasible,
    ReturnSignal,
)
from auditor.interpret.library import ABSENT
from auditor.interpret.memos import MEMOS
from auditor.interpret.scopes import (
    Frame,
    LazyImport,
    Thunk,
    assigned_targets,
)
from auditor.interpret.syntax import location_of
from auditor.interpret.values import (
    ClassRef,
    ConfigDependency,
    ExternalRef,
    FunctionRef,
    Instance,
    MemberName,
    ModuleRef,
    Unknown,
    Why,
    is_unknown,
)
from auditor.location import Location

BUILTIN_NAMES = frozenset(
    "int float bool str abs round divmod min max sum len any all range isinstance hasattr getattr "
    "type tuple list dict print super object Exception ValueError NotImplementedError callable "
    "zip enumerate next map setattr sorted reversed pow set frozenset".split()
)
CONSTANTS = {"True": True, "False": False, "None": None}
DEFERRED = _DEFERRED = frozenset(
    {Thunk, LazyImport, ConfigDependency}
)  # bindings `force` evaluates


class Namespaces:
    """Mixin of `Interpreter`: module and class namespaces and name lookup."""

    def module_namespace(self, module: ModuleInfo) -> dict:
        namespace = self._module_namespaces.get(id(module))
        if namespace is None:
            namespace = {}
            self._module_namespaces[id(module)] = namespace
            frame = Frame(module, locals_=namespace, declarative=True)
            self.declare_block(module.parsed.tree.body, frame)
            if self.watch is not None:
                self.watch.namespace(namespace)
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
            if self.watch is not None:
                self.watch.namespace(namespace)
        return namespace

    def declare_block(self, statements, frame: Frame) -> None:
        """Run a module or class body: bind definitions and imports, defer assignments."""
        names = frame.locals
        for step in declaration_plan(statements, frame.module, frame.class_body is not None):
            kind = step[0]
            if kind is _THUNK:
                names[step[1]] = Thunk(step[2], frame)
            elif kind is _IMPORT:
                names[step[1]] = LazyImport(step[2], step[3], frame.module)
                self.import_registrations(step[2], step[3], frame.module)
            elif kind is _VALUE:
                names[step[1]] = step[2]
            elif kind is _METHOD:
                names[step[1]] = frame.class_body.methods.get(step[1])
            elif kind is _REGISTER:
                if id(step[1].cls) in self.index.pool_classes:
                    self.run_registrations(step[1], step[2], frame, step[3])
            elif kind is _NESTED:  # a class defined in a class body
                inner = frame.class_body.nested.get(step[1])
                names[step[1]] = (
                    ClassRef(inner)
                    if inner is not None and inner.node is step[2]
                    else Unknown("nested or conditional class definition", step[3])
                )
            else:
                try:
                    self.declare_statement(step[1], frame)
                except (Infeasible, ReturnSignal, BreakSignal, ContinueSignal):
                    continue

    def declare_statement(self, statement: cst.CSTNode, frame: Frame) -> None:
        module = frame.module
        # `type(x) is`: libcst node classes are ABCs (slow isinstance); these have no subclasses
        kind = type(statement)
        if kind is cst.SimpleStatementLine:
            self.declare_line(statement, frame)
            return
        if kind is cst.FunctionDef:
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
        if kind is cst.ClassDef:
            info = module.classes.get(statement.name.value)
            if info is not None and info.node is statement:
                frame.locals[statement.name.value] = ClassRef(info)
            else:
                frame.locals[statement.name.value] = Unknown(
                    "nested or conditional class definition", module.parsed.location(statement)
                )
            return
        if kind is cst.If:
            verdict = self.truth(self.eval(statement.test, frame))
            if verdict is None:
                self.declare_undecided(statement, frame)
            elif verdict:
                self.declare_block(statement.body.body, frame)
            elif type(statement.orelse) is cst.If:
                self.declare_statement(statement.orelse, frame)
            elif type(statement.orelse) is cst.Else:
                self.declare_block(statement.orelse.body.body, frame)
            return
        if kind is cst.Try:
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
        if kind is cst.For or kind is cst.While or kind is cst.With or kind is cst.Match:
            self.mark_undecided([statement], frame, "module-level loop or block not followed")

    def declare_line(self, statement: cst.SimpleStatementLine, frame: Frame) -> None:
        """Imports bound, plain assignments deferred, other assignments run."""
        for small in statement.body:
            kind = type(small)
            if kind is cst.Import or kind is cst.ImportFrom:
                self.bind_import(small, frame)
            elif kind is cst.Assign and all(type(t.target) is cst.Name for t in small.targets):
                for target in small.targets:
                    frame.locals[target.target.value] = Thunk(small.value, frame)
            elif kind is cst.AnnAssign and type(small.target) is cst.Name:
                if small.value is not None:
                    frame.locals[small.target.value] = Thunk(small.value, frame)
            elif kind is cst.Assign or kind is cst.AugAssign or kind is cst.AnnAssign:
                self.exec_small(small, frame)

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
                        f"bound under an undecided condition: {why}",
                        location,
                        Why.UNDECIDED,
                        reason if is_unknown(reason) else None,
                    )
                else:
                    frame.locals.setdefault(name, value)

    def bind_import(self, statement: cst.Import | cst.ImportFrom, frame: Frame) -> None:
        for bound, source, attr in import_bindings(frame.module, statement):
            frame.locals[bound] = LazyImport(source, attr, frame.module)
            self.import_registrations(source, attr, frame.module)

    def import_registrations(self, source: str, attr: str | None, near: ModuleInfo) -> None:
        """An import runs the imported module, and with it the class decorators that register
        its classes in another module's table (`@register_pool("host")`): the module is
        declared now, where it has such decorators on a pool class, as Python would run it
        (the rest of its body stays deferred). Only pools' decorators: a tree registering
        thousands of other classes (ops, models) is not run for them."""
        module = self.index.find_module(source, near) if source else None
        if attr is not None:
            inner = self.index.find_module(f"{source}.{attr}", near) if source else None
            module = inner if inner is not None else module
        if module is not None and self.index.pool_classes and self._registers(module):
            self.module_namespace(module)

    def _registers(self, module: ModuleInfo) -> bool:
        """Does the module define, at its top level, a pool class with a decorator call?"""
        known = self.index.registering.get(id(module))
        if known is None:
            known = self.index.registering[id(module)] = any(
                type(statement) is cst.ClassDef
                and any(_registers(d.decorator) for d in statement.decorators)
                and (info := module.classes.get(statement.name.value)) is not None
                and id(info) in self.index.pool_classes
                for statement in module.parsed.tree.body
            )
        return known

    def run_registrations(self, cls: ClassRef, calls: tuple, frame: Frame, where) -> None:
        """`@register_pool("host")` on a module-level class: the decorator the call returns
        is called with the class, for what it does (`_POOLS[name] = cls`); what it returns
        is not bound (the name stays the class), and a decorator not of the tree, or one that
        fails, does nothing here."""
        for call in reversed(calls):  # (Python applies the innermost first)
            try:
                func = self.eval(call.func, frame)
                if not isinstance(func, FunctionRef):
                    continue
                decorator = self.eval(call, frame)
                if isinstance(decorator, FunctionRef):
                    self.call(decorator, [cls], {}, where)
            except (Infeasible, ReturnSignal, BreakSignal, ContinueSignal):
                continue

    def resolve_import(self, lazy: LazyImport, location: Location) -> Any:
        module = self.index.find_module(lazy.source, lazy.near) if lazy.source else None
        if lazy.attr is None:
            return ModuleRef(module) if module is not None else ExternalRef(lazy.source)
        if module is None:
            submodule = self.index.find_module(f"{lazy.source}.{lazy.attr}", lazy.near)
            if submodule is not None:
                return ModuleRef(submodule)
            return library.external_attribute(lazy.source, lazy.attr, location)
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
                owner = value.frame.class_body
                if owner is not None and isinstance(result, Instance):
                    self.set_name(result, owner, name, location)
                if owner is not None and enums.is_enum(owner) and name in enums.member_names(owner):
                    result = enums.make_member(owner, name, result)
                    enums.initialise(self, result, location)
            finally:
                value.evaluating = False
            namespace[name] = result
            if self.watch is not None:  # a lanes build: it must leave it as it is (lanes.py)
                self.watch.note(namespace, name, result)
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
            if type(result) is MemberName:
                result = self.enum_member(result, location)
            namespace[name] = result
            return result
        return value

    def enum_member(self, member: MemberName, location: Location) -> Any:
        """The enum member a config value names, looked up as its module's code would."""
        module = self.index.modules.get(member.module)
        kind, _, attribute = member.text.partition(".")
        found = self.module_member(module, kind, location, set()) if module else ABSENT
        if isinstance(found, ClassRef) and enums.is_enum(found.cls):
            value = self.class_attribute(found.cls, attribute, location, receiver=None)
            if enums.is_member(value):
                return value
        return Unknown(f"{member.text} is not an enum member in {member.module}", location)

    def set_name(self, attribute: Instance, owner: ClassInfo, name: str, location) -> None:
        """Python calls `__set_name__(owner, name)` on class attributes that define it
        (descriptors such as `SGLANG_X = EnvBool(False)` learn their name that way)."""
        hook = attribute.cls.find_method("__set_name__")
        if hook is not None:
            self.call(
                FunctionRef(hook, attribute, hook.owner), [ClassRef(owner), name], {}, location
            )

    def lookup_name(self, name: str, frame: Frame, node: cst.CSTNode) -> Any:
        if name in CONSTANTS:
            return CONSTANTS[name]
        # the module is declared even when the name is local: declaring reads config values
        module_scope = self._module_namespaces.get(id(frame.module))
        if module_scope is None:
            module_scope = self.module_namespace(frame.module)
        if name in frame.locals:
            scope = frame.locals
        elif frame.parent_scope is not None and name in frame.parent_scope:
            scope = frame.parent_scope
        elif name in module_scope:
            scope = module_scope
        else:
            scope = None
        if scope is not None:
            value = scope[name]
            if type(value) in _DEFERRED:
                return self.force(scope, name, location_of(frame.module.parsed, node))
            return value
        location = location_of(frame.module.parsed, node)
        if frame.module.star_imports:
            found = self.module_member(frame.module, name, location, set())
            if found is not ABSENT:
                return found
        if name in BUILTIN_NAMES:
            return ExternalRef(f"builtins.{name}")
        return Unknown(f"name {name!r} is not defined", location)


# Steps of a declaration plan: what `declare_statement` would do, worked out once per block
_THUNK, _IMPORT, _VALUE, _METHOD, _STATEMENT, _NESTED, _REGISTER = range(7)
_PLANS = MEMOS.plans  # memos.py: key -> (the body keyed by identity, or None; its plan)


def _registers(decorator: cst.BaseExpression) -> bool:
    """A class decorator that is a call (`@register_pool("host")`), not a dataclass's."""
    return (
        type(decorator) is cst.Call
        and type(decorator.func) in (cst.Name, cst.Attribute)
        and "dataclass" not in cst.Module([]).code_for_node(decorator.func)
    )


def declaration_plan(statements, module: ModuleInfo, in_class: bool) -> list[tuple]:
    """The bindings a module or class body makes whatever the config point, in order, with the
    statements that depend on it (`if`, `try`, loops, other assignments) left to run.

    Every config point declares the bodies it touches again (module code reads flags and
    switches); definitions, imports and plain assignments come out the same at every point,
    so they are read off the syntax once. Thunks and imports are still made per namespace:
    forcing them replaces them there.
    """
    if type(statements) is tuple:  # a body a node holds: the same object at every point
        key, owner = (id(statements), in_class), statements
    else:
        key, owner = (tuple(statements), in_class), None
    remembered = _PLANS.get(key)
    if remembered is not None and remembered[0] is owner:
        return remembered[1]
    plan: list[tuple] = []
    for statement in statements:
        plan.extend(_steps(statement, module, in_class))
    if len(_PLANS) >= MEMOS.limits["plans"]:
        _PLANS.clear()
    _PLANS[key] = (owner, plan)  # the body itself is kept: its id is not reused meanwhile
    return plan


def _steps(statement: cst.CSTNode, module: ModuleInfo, in_class: bool) -> list[tuple]:
    kind = type(statement)
    if kind is cst.FunctionDef:
        name = statement.name.value
        if in_class:
            return [(_METHOD, name)]
        info = module.functions.get(name)
        if info is None or info.node is not statement:
            info = FunctionInfo(name, name, module, statement)
        return [(_VALUE, name, FunctionRef(info))]
    if kind is cst.ClassDef:
        name = statement.name.value
        where = module.parsed.location(statement)
        if in_class:
            return [(_NESTED, name, statement, where)]
        info = module.classes.get(name)
        if info is not None and info.node is statement:
            calls = tuple(d.decorator for d in statement.decorators if _registers(d.decorator))
            registered = [(_REGISTER, ClassRef(info), calls, where)] if calls else []
            return [(_VALUE, name, ClassRef(info)), *registered]
        return [(_VALUE, name, Unknown("nested or conditional class definition", where))]
    if kind is not cst.SimpleStatementLine:
        return [(_STATEMENT, statement)]
    steps: list[tuple] = []
    for small in statement.body:
        small_kind = type(small)
        if small_kind is cst.Import or small_kind is cst.ImportFrom:
            steps.extend((_IMPORT, *binding) for binding in import_bindings(module, small))
        elif small_kind is cst.Assign and all(type(t.target) is cst.Name for t in small.targets):
            steps.extend((_THUNK, t.target.value, small.value) for t in small.targets)
        elif small_kind is cst.AnnAssign and type(small.target) is cst.Name:
            if small.value is not None:
                steps.append((_THUNK, small.target.value, small.value))
        elif small_kind is cst.Assign or small_kind is cst.AugAssign or small_kind is cst.AnnAssign:
            return [(_STATEMENT, statement)]  # runs at each point (and may stop the line)
    return steps
