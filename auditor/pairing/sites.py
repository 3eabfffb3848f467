"""Where the audited code builds its host pools, and which device pools can reach each place.

A host pool class is paired with the device pools that the code can actually hand it: at every
call that constructs it (directly, through a class chosen by `if`/`elif` or looked up in a dict
keyed by the device pool's type, with a `**kwargs` dict built in the same function), the
`isinstance` guards on the path (with the negation of earlier branches of the same chain, and of
earlier `if isinstance(...): return`), the declared type of the variable passed, and the return
annotation of the factory it came from narrow the device classes. Only syntax is read here;
arguments are evaluated later (evaluate.py), at each config point.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import libcst as cst

from auditor.evaluation.matrix import constructor_parameters
from auditor.frontend.index import ClassInfo, FunctionInfo, ModuleInfo, ProjectIndex, dotted
from auditor.frontend.parse import LateParseError, ParsedModule
from auditor.frontend.scope import (
    FunctionScope,
    LocalNames,
    annotation_class,
    code_of,
    cpython_tree,
    functions_naming,
)
from auditor.location import Location
from auditor.pairing.callers import (
    CallersRecord,
    record_from_callers,
    record_read_off_local,
    record_root,
)
from auditor.pairing.factories import factories_in, returned_classes, unpacked_source
from auditor.pairing.guards import FunctionWalk, Guard, guards_of, type_subject
from auditor.pairing.holders import held_classes, subject_classes


@dataclass(eq=False)
class ConstructionSite:
    """One call that constructs a host pool class, with what narrows the devices it receives.

    During the audit a site holds the syntax it was read from (its module, the call, the
    arguments as nodes, evaluate.py's memo); a finished result keeps it without them
    (`stored_form()`: text, positions and classes only, which the cache stores and reads back
    as this same type), so every report renders the same from either, and both give the same
    `signature()` and `key()`."""

    host: ClassInfo
    module: ModuleInfo | None  # None once stored
    call: cst.Call | None  # None once stored
    function: str  # qualified name of the enclosing function ("<module>" at top level)
    how: str  # "direct call", "class chosen in the function", "dict keyed by the device type"
    arguments: dict[str, cst.BaseExpression]  # host parameter -> expression passed ({} stored)
    device_parameter: str | None  # the host parameter that receives the device pool
    device_text: str | None  # the expression passed for it
    path: str  # the module's path
    location: Location  # the call
    written: tuple[tuple[str, str], ...]  # (host parameter, source text passed), sorted
    guards: tuple[Guard, ...] = ()
    declared: ClassInfo | None = None  # declared type of the device expression
    declared_from: str = ""
    exact_declared: bool = False  # the device expression is a construction of `declared`
    holds: tuple[ClassInfo, ...] | None = None  # exact classes an attribute read can hold
    unfollowed: str | None = None  # `*args` / `**kwargs` that could not be followed
    problems: list[str] = field(default_factory=list)
    local_names: frozenset[str] = frozenset()  # names the enclosing function binds
    parameters: frozenset[str] = frozenset()  # of those, its parameters (the callers' values)
    substituted: dict = field(default_factory=dict, compare=False, repr=False)  # evaluate.py's memo
    via_record: bool = False  # the host takes a record of the device's buffers, not the device
    record_problem: str | None = None  # why the record's device pool is not known here
    # why no device pool can be said to reach the site (read off an object of no known class
    # where the annotation is another branch's): said, never every pool guessed
    unknown_device: str | None = None
    # the record parameter of the enclosing function whose value its callers give (callers.py)
    from_callers: CallersRecord | None = None
    # a pool built beside another in one function, from its parameters by another path
    # (composed.py): the call there that builds the other pool (the pair's device), run to as
    # this one is; where it is (kept once stored); the function's parameters both read
    device_call: cst.Call | None = None
    # the call in the function that leads to `call` when that one lies in a classmethod it
    # calls (`Mirror.mirror_of(pool)` returning `cls(...)`): the run's path goes through it
    via_call: cst.Call | None = None
    device_via_call: cst.Call | None = None  # the same for the device's call (composed.py)
    device_at: str = ""
    roots: frozenset[str] = frozenset()
    # of those, the object path each is read under: the pools' own for the object they take
    stand_ins: tuple[tuple[str, str], ...] = ()

    def where(self) -> str:
        location = self.location
        return f"{location.path}:{location.line}"

    def admits(self, device: ClassInfo) -> bool:
        """Can the code hand this device class to the host at this site?"""
        if self.declared is not None:
            if self.exact_declared and device is not self.declared:
                return False
            if self.declared not in device.mro():
                return False
        if self.holds is not None and device not in self.holds:
            return False
        return all(g.admits(device) for g in self.guards if g.subject == self.device_text)

    def narrows(self) -> bool:
        """Does the code here say anything of the device's class (a guard or a declared type)?"""
        return (
            self.declared is not None
            or self.holds is not None
            or any(
                g.subject == self.device_text and g.classes and not g.negated for g in self.guards
            )
        )

    def signature(self) -> tuple:
        """What the evaluation of this site depends on: the arguments as written."""
        return (self.path, self.written, self.device_parameter, self.unfollowed, self.device_at)

    def key(self) -> list:
        """Everything of this site that its evaluation reads, as text (the per-evaluation
        cache's key): the same text in an unchanged module (its hash is in the entry's record)
        is the same site."""
        return [
            self.host.module.path,
            self.host.qualname,
            list(self.signature()),
            str(self.location),
            self.function,
            self.device_text,
            sorted(self.local_names),
            self.via_record,
            self.device_at,
            sorted(self.roots),
            list(self.stand_ins),
        ]

    def stored_form(self) -> ConstructionSite:
        """This site once the audit is over (the cache stores it): no syntax tree, no index."""
        if self.module is None:
            return self
        return dataclasses.replace(
            self,
            module=None,
            call=None,
            arguments={},
            substituted={},
            device_call=None,
            via_call=None,
            device_via_call=None,
        )


# ---- which files to read ---------------------------------------------------------------------


def candidate_modules(
    index: ProjectIndex,
    parsed: list[ParsedModule],
    names: set[str],
    keep: Callable[[ParsedModule], bool] | None = None,
) -> list[ModuleInfo]:
    """The modules whose text names a host class: a byte search, so that files the pre-filter
    left unparsed are parsed only when they may build a host pool; `keep` may look closer
    (at CPython's tree) before libcst parses one."""
    needles = [name.encode() for name in names]
    found = []
    for module in parsed:
        data = module_bytes(module)
        if data is None:
            continue
        if any(needle in data for needle in needles) and (keep is None or keep(module)):
            info = index.module_for(module)
            if info is not None:
                found.append(info)
    return found


def module_bytes(module: ParsedModule) -> bytes | None:
    """A file's bytes, for a byte search: kept since discovery, or read again where parsing
    dropped them (None if it cannot be read now)."""
    if module.data is not None:
        return module.data
    try:
        return module.source.path.read_bytes()
    except OSError:
        return None


def _functions(module: ModuleInfo) -> Iterator[tuple[str, cst.FunctionDef, ClassInfo | None]]:
    """Every function and method of a module, nested ones included, with its qualified name."""
    stack: list[tuple[cst.CSTNode, str, ClassInfo | None]] = [
        (module.parsed.tree, module.name, None)
    ]
    while stack:
        node, prefix, owner = stack.pop()
        body = node.body.body if isinstance(node, (cst.FunctionDef, cst.ClassDef)) else node.body
        for statement in _nested_statements(body):
            if isinstance(statement, cst.FunctionDef):
                qualname = f"{prefix}.{statement.name.value}"
                yield qualname, statement, owner
                stack.append((statement, qualname, None))
            elif isinstance(statement, cst.ClassDef):
                cls = module.classes.get(statement.name.value) if owner is None else None
                stack.append((statement, f"{prefix}.{statement.name.value}", cls))


def _nested_statements(body) -> Iterator[cst.CSTNode]:
    """Statements of a body, descending into if/try/with/for blocks (not into definitions)."""
    pending = list(body)
    while pending:
        statement = pending.pop(0)
        yield statement
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            continue
        for name in ("body", "orelse", "finalbody"):
            part = getattr(statement, name, None)
            if isinstance(part, cst.BaseSuite):
                pending.extend(part.body)
            elif isinstance(part, (cst.Else, cst.Finally)):
                pending.extend(part.body.body)
            elif isinstance(part, cst.If):
                pending.append(part)
        for handler in getattr(statement, "handlers", ()):
            pending.extend(handler.body.body)


# ---- sites -----------------------------------------------------------------------------------


class SiteFinder:
    """Finds the construction sites of the given host classes in the given modules."""

    def __init__(
        self,
        index: ProjectIndex,
        hosts: list[ClassInfo],
        device_params: list[str],
        names: set[str] = frozenset(),
        record_params: list[str] = (),
    ) -> None:
        self.index = index
        self.hosts = hosts
        self.device_params = device_params
        self.record_params = list(record_params)
        self.names = frozenset(names) | {h.name for h in hosts}  # host classes and their tables
        self.trees: dict[str, ast.Module | None] = {}
        self.cls_host: ClassInfo | None = None  # the host whose classmethod is being walked
        self.callees: frozenset[str] = frozenset()

    def find(self, modules: list[ModuleInfo]) -> list[ConstructionSite]:
        sites: list[ConstructionSite] = []
        for module in modules:
            try:
                module.parsed.tree  # noqa: B018 - already parsed by module_for
            except LateParseError:
                continue
            aliases = {
                bound
                for bound, (_, attr) in module.imports.items()
                if attr is not None and attr.rsplit(".", 1)[-1] in self.names
            }
            needles = self.names | aliases
            tree = cpython_tree(module, self.trees)
            naming = functions_naming(tree, module.name, needles) if tree is not None else None
            for qualname, function, owner in _functions(module):
                # `cls(...)` in a classmethod of a host class builds that class
                self.cls_host = (
                    owner
                    if owner in self.hosts
                    and any(dotted(d.decorator) == "classmethod" for d in function.decorators)
                    else None
                )
                if naming is None or qualname in naming or self.cls_host is not None:
                    sites.extend(self._in_function(module, qualname, function, owner, needles))
        return sites

    def _in_function(
        self, module: ModuleInfo, qualname: str, function: cst.FunctionDef, owner, needles
    ) -> list[ConstructionSite]:
        imports = LocalNames(module, needles)
        function.body.visit(imports)
        if not imports.mentions and self.cls_host is None:  # names no host class nor table
            return []
        local_aliases = {
            bound
            for bound, (_, attr) in imports.bound.items()
            if attr is not None and attr.rsplit(".", 1)[-1] in self.names
        }
        self.callees = needles | local_aliases
        scope = FunctionScope(self.index, module, imports.bound)
        walk = FunctionWalk(scope)
        walk.block(function.body.body, ())
        parameters = {
            p.name.value: p
            for p in [
                *function.params.posonly_params,
                *function.params.params,
                *function.params.kwonly_params,
            ]
        }
        found = []
        for call, guards in walk.calls:
            for host, extra, how in self._hosts_called(scope, walk, call.func):
                site = self._site(module, qualname, call, host, guards + extra, how, walk)
                site.local_names = frozenset(imports.names | set(imports.bound) | set(parameters))
                site.parameters = frozenset(parameters)
                if site.record_problem is not None:
                    self._record_from_callers(site, module, function, parameters)
                self._declare(site, scope, walk, parameters, owner)
                found.append(site)
        return found

    def _hosts_called(
        self, scope: FunctionScope, walk: FunctionWalk, func: cst.BaseExpression, depth: int = 0
    ) -> list[tuple[ClassInfo, tuple[Guard, ...], str]]:
        """Host classes a call's callee can be, each with the facts that choose it."""
        if depth > 3:
            return []
        if isinstance(func, cst.Name) and func.value == "cls" and self.cls_host is not None:
            return [(self.cls_host, (), "cls() in a classmethod")]
        name = dotted(func)
        # resolving every callee would index every module the function imports from
        found = scope.resolve(func) if name and name.rsplit(".", 1)[-1] in self.callees else None
        if isinstance(found, ClassInfo):
            return [(found, (), "direct call")] if found in self.hosts else []
        results = []
        if isinstance(func, cst.Name) and func.value in walk.assignments:
            for binding in walk.assignments[func.value]:
                for host, extra, how in self._hosts_called(scope, walk, binding.value, depth + 1):
                    chosen = "class chosen in the function" if how == "direct call" else how
                    results.append((host, binding.guards + extra, chosen))
            return results
        if isinstance(func, cst.Name) and func.value in walk.unpacked:
            for call, position, guards in walk.unpacked[func.value]:
                for host, how in returned_classes(self, scope, call, position, depth + 1):
                    results.append((host, guards, how))
            return results
        if isinstance(func, cst.Call):  # `cls = factory(info)` then `cls(...)`
            return [
                (host, (), how)
                for host, how in returned_classes(self, scope, func, None, depth + 1)
            ]
        if isinstance(func, cst.IfExp):
            true, false = guards_of(scope, func.test)
            for branch, facts in ((func.body, true), (func.orelse, false)):
                for host, extra, how in self._hosts_called(scope, walk, branch, depth + 1):
                    results.append((host, tuple(facts) + extra, how))
            return results
        lookup = _dict_lookup(func)
        if lookup is not None:
            table_node, subject = lookup
            for key_class, host, key_text in self._table(scope, walk, table_node):
                if host in self.hosts:
                    text = f"type({code_of(subject)}) is {key_text}"
                    guard = Guard(code_of(subject), (key_class,), False, True, text)
                    results.append((host, (guard,), "dict keyed by the device type"))
        return results

    def _table(
        self, scope: FunctionScope, walk: FunctionWalk, node: cst.BaseExpression
    ) -> list[tuple[ClassInfo, ClassInfo, str]]:
        """(key class, value class, key as written) of a dict literal named by `node`, local or
        at module level (in this module or imported), each resolved where the dict is written."""
        if isinstance(node, cst.Name) and node.value in walk.assignments:
            bindings = walk.assignments[node.value]
            if len(bindings) == 1:
                node = bindings[0].value
        if isinstance(node, cst.Dict):
            return _class_pairs(scope, node)
        name = dotted(node)
        if name is None:
            return []
        module, _, attr = name.rpartition(".")
        if module:
            target = scope.resolve(cst.parse_expression(module))
            if not isinstance(target, ModuleInfo):
                return []
            where, name = target, attr
        else:
            source = scope.imports.get(name) or scope.module.imports.get(name)
            where = scope.module
            if source is not None:
                found = self.index.find_module(source[0], scope.module)
                if found is None or source[1] is None:
                    return []
                where, name = found, source[1]
        value = _module_assignment(where, name)
        if isinstance(value, cst.Dict):
            return _class_pairs(FunctionScope(self.index, where, {}), value)
        return []

    def _site(self, module, qualname, call, host, guards, how, walk) -> ConstructionSite:
        parameters = [p.name.value for p in constructor_parameters(host)]
        arguments: dict[str, cst.BaseExpression] = {}
        unfollowed = None
        problems: list[str] = []
        position = 0
        for arg in call.args:
            if arg.star == "*":
                unfollowed = f"*{code_of(arg.value)} is not followed"
                position = len(parameters)
            elif arg.star == "**":
                name = code_of(arg.value)
                if name in walk.dict_keys and name not in walk.dict_unfollowed:
                    for key, value in walk.dict_keys[name].items():
                        arguments.setdefault(key, value)
                else:
                    why = walk.dict_unfollowed.get(name, "a dict not built in this function")
                    unfollowed = f"**{name} is not followed ({why})"
            elif arg.keyword is not None:
                arguments[arg.keyword.value] = arg.value
            elif position < len(parameters):
                arguments[parameters[position]] = arg.value
                position += 1
            else:
                problems.append(f"more positional arguments than {host.name}() takes")
        device_parameter = next((p for p in parameters if p in self.device_params), None)
        device_node = arguments.get(device_parameter) if device_parameter else None
        via_record, record_problem = False, None
        if device_parameter is None:
            device_parameter = next((p for p in parameters if p in self.record_params), None)
            via_record = device_parameter is not None
            record = arguments.get(device_parameter) if via_record else None
            if record is not None:
                record = _single_binding(walk, record)
                arguments[device_parameter] = record
                device_node = record_source(record) or unpacked_source(walk, record)
                local = record_read_off_local(walk, record) if device_node is None else None
                if local is not None:  # `(info,) = pool.f()` then `info.buffer_info`
                    record = arguments[device_parameter] = local
                    device_node = record_source(record)
                if device_node is None:
                    record_problem = (
                        f"{device_parameter}={code_of(record)} is not read off a device pool "
                        "here (`pool.method()...` or `pool.method()[i].attr` is followed)"
                    )
            elif via_record and unfollowed is None:
                record_problem = f"{device_parameter} is not passed"
            elif via_record:
                record_problem = f"{device_parameter} may be passed by {unfollowed}"
        return ConstructionSite(
            host=host,
            module=module,
            call=call,
            function=qualname,
            how=how,
            arguments=arguments,
            device_parameter=device_parameter,
            device_text=code_of(device_node) if device_node is not None else None,
            path=module.path,
            location=module.parsed.location(call),
            written=tuple(sorted((n, module.parsed.code(e)) for n, e in arguments.items())),
            guards=tuple(g for g in guards if g.classes or not g.negated),
            unfollowed=unfollowed,
            problems=problems,
            via_record=via_record,
            record_problem=record_problem,
        )

    def _record_from_callers(self, site, module, function, parameters) -> None:
        """A record read off a parameter of the function (`pool_info.buffer_info`) that every
        caller passes as a value read off a pool it also passes (callers.py): the record is
        that value on the function's own pool parameter."""
        record = site.arguments.get(site.device_parameter)
        root = record_root(record) if record is not None else None
        if root is None or root not in parameters:
            return
        found = record_from_callers(self.index, module, function, root)
        if found is None:
            return
        text = found.value + code_of(record)[len(root) :]
        site.arguments[site.device_parameter] = cst.parse_expression(text)
        site.device_text, site.record_problem, site.from_callers = found.device, None, found
        site.written = tuple(sorted((n, code_of(e)) for n, e in site.arguments.items()))

    def _declare(self, site, scope, walk, parameters, owner) -> None:
        """The declared type of the device expression, where the code states one."""
        text = site.device_text
        if text is None:
            return
        annotation = walk.annotations.get(text)
        before = _binding_before(walk, site.call, text)
        if annotation is not None and before is not None and not before.annotated:
            # assigned without it just before the call (`self.pool = kvcache.main_pool`),
            # annotated in another branch (`self.pool: DSAPool = kvcache`): not this one's type
            annotation = None
            if not _narrowed(self.index, before.value, site, owner):
                # every pool the host's annotation admits would be a guess: said, not paired
                site.unknown_device = (
                    f"the device is {text} = {code_of(before.value)} here, an object of no "
                    f"known class (the annotation {text}: {code_of(walk.annotations[text])} "
                    "is another branch's)"
                )
                return
        source = "annotation"
        if annotation is None and text in parameters and parameters[text].annotation is not None:
            annotation = parameters[text].annotation.annotation
            source = "parameter annotation"
        if annotation is None and text.startswith("self.") and owner is not None:
            annotation = _class_annotation(owner, text.removeprefix("self."))
            source = "class annotation"
        if annotation is not None:
            site.declared = annotation_class(scope, annotation)
            if site.declared is not None:
                site.declared_from = f"{source} {text}: {site.declared.name}"
            return
        values = [b.value for b in walk.assignments.get(text, [])]
        device_node = site.arguments.get(site.device_parameter)
        read = values[0] if len(values) == 1 else device_node if not values else None
        if before is not None:  # assigned just before the call: that value reaches it
            read = before.value
        if isinstance(read, cst.Attribute):  # the device is an attribute of another object
            owners = subject_classes(code_of(read.value), site.guards, owner)
            held = held_classes(self.index, owners, read.attr.value) if owners else None
            if held is not None:
                site.holds = held
                names = " | ".join(c.name for c in held)
                site.declared_from = f"{code_of(read)} holds {names} (built into it)"
                return
        if len(values) != 1 or not isinstance(values[0], cst.Call):
            return
        callee = scope.resolve(values[0].func) if dotted(values[0].func) else None
        if isinstance(callee, ClassInfo):
            site.declared, site.exact_declared = callee, True
            site.declared_from = f"{text} = {callee.name}(...)"
        elif isinstance(callee, FunctionInfo) and callee.node.returns is not None:
            returns = annotation_class(
                FunctionScope(self.index, callee.module, {}), callee.node.returns.annotation
            )
            if returns is not None:
                site.declared = returns
                site.declared_from = f"{text} = {callee.name}(...) -> {returns.name}"


def _narrowed(index: ProjectIndex, value: cst.BaseExpression, site, owner) -> bool:
    """Does the code say which classes `value` can be (a class built there, or an attribute
    whose owner builds known classes into it)?"""
    if isinstance(value, cst.Attribute):
        owners = subject_classes(code_of(value.value), site.guards, owner)
        return bool(owners) and held_classes(index, owners, value.attr.value) is not None
    return False


def _binding_before(walk: FunctionWalk, call: cst.Call, text: str) -> Any:
    """The last assignment of `text` before the call's statement in the same block, if any."""
    block, position = walk.call_where.get(id(call), (0, -1))
    found = None
    for binding in walk.assignments.get(text, []):
        if binding.where[0] == block and binding.where[1] < position:
            if found is None or binding.where[1] > found.where[1]:
                found = binding
    return found


def _single_binding(walk: FunctionWalk, node: cst.BaseExpression) -> cst.BaseExpression:
    """A local name assigned exactly once in the function stands for what it was assigned."""
    if isinstance(node, cst.Name):
        bindings = walk.assignments.get(node.value, [])
        if len(bindings) == 1 and bindings[0].value is not None:
            return bindings[0].value
    return node


def record_source(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """The device pool a record argument is read off: the receiver of the first method call
    of the chain (`kv.get_device_pool_infos()[0].buffer_info` and `kv._buffer_info()`: `kv`)."""
    receiver = None
    while True:
        if isinstance(node, (cst.Attribute, cst.Subscript)):
            node = node.value
        elif isinstance(node, cst.Call):
            if not isinstance(node.func, cst.Attribute):
                return None  # a function or a constructor: not read off a pool
            receiver = node = node.func.value
        else:
            return receiver


def _dict_lookup(func: cst.BaseExpression):
    """`TABLE[type(x)]` or `TABLE.get(type(x))`: (TABLE, x)."""
    if isinstance(func, cst.Subscript) and len(func.slice) == 1:
        index = func.slice[0].slice
        if isinstance(index, cst.Index):
            subject = type_subject(index.value)
            if subject is not None:
                return func.value, subject
    if (
        isinstance(func, cst.Call)
        and isinstance(func.func, cst.Attribute)
        and func.func.attr.value == "get"
        and func.args
    ):
        subject = type_subject(func.args[0].value)
        if subject is not None:
            return func.func.value, subject
    return None


def _class_pairs(scope: FunctionScope, node: cst.Dict) -> list[tuple[ClassInfo, ClassInfo, str]]:
    pairs = []
    for element in node.elements:
        if isinstance(element, cst.DictElement):
            key, value = scope.resolve_class(element.key), scope.resolve_class(element.value)
            if key is not None and value is not None:
                pairs.append((key, value, code_of(element.key)))
    return pairs


def _host_tables(module: ModuleInfo, hosts: set[str]) -> list[str]:
    """Names of the module-level dicts whose values name host classes."""
    found = []
    for statement in module.parsed.tree.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if isinstance(small, (cst.Assign, cst.AnnAssign)) and isinstance(small.value, cst.Dict):
                values = [
                    (dotted(e.value) or "").rsplit(".", 1)[-1]
                    for e in small.value.elements
                    if isinstance(e, cst.DictElement)
                ]
                if any(v in hosts for v in values):
                    targets = (
                        [t.target for t in small.targets]
                        if isinstance(small, cst.Assign)
                        else [small.target]
                    )
                    found.extend(t.value for t in targets if isinstance(t, cst.Name))
    return found


def _module_assignment(module: ModuleInfo, name: str) -> cst.BaseExpression | None:
    for statement in module.parsed.tree.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.Assign):
                    for target in small.targets:
                        if isinstance(target.target, cst.Name) and target.target.value == name:
                            return small.value
                elif (
                    isinstance(small, cst.AnnAssign)
                    and isinstance(small.target, cst.Name)
                    and small.target.value == name
                ):
                    return small.value
    return None


def _class_annotation(owner: ClassInfo, attribute: str) -> cst.BaseExpression | None:
    for cls in owner.mro():
        for statement in cls.node.body.body:
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    if (
                        isinstance(small, cst.AnnAssign)
                        and isinstance(small.target, cst.Name)
                        and small.target.value == attribute
                    ):
                        return small.annotation.annotation
    return None


def find_sites(
    index: ProjectIndex,
    parsed: list[ParsedModule],
    hosts: list[ClassInfo],
    device_params: list[str],
    record_params: list[str] = (),
) -> tuple[list[ConstructionSite], set[str]]:
    """Every construction site of the host classes, in files whose text names one of them;
    and the names searched for in every file's bytes (a file that starts naming one may hold
    a new site: engine.py checks the files libcst did not parse against them)."""
    if not hosts:
        return [], set()
    names = {h.name for h in hosts}
    modules = candidate_modules(index, parsed, names)
    # a module-level table of host classes, used from a file that names none of them
    tables = {t for m in modules for t in _host_tables(m, names)} - names
    if tables:
        seen = {id(m) for m in modules}
        more = candidate_modules(index, parsed, tables)
        modules.extend(m for m in more if id(m) not in seen)
    factories: set[str] = set()
    for _ in range(3):  # functions returning a host class, helpers returning their call
        found = {f for m in modules for f in factories_in(m, names | factories)} - factories
        if not found:
            break
        factories |= found
        seen = {id(m) for m in modules}
        more = candidate_modules(index, parsed, found)
        modules.extend(m for m in more if id(m) not in seen)
    modules.sort(key=lambda m: m.path)
    named = tables | factories
    sites = SiteFinder(index, hosts, device_params, named, record_params).find(modules)
    return sites, names | named
