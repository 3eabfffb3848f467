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
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field

import libcst as cst

from auditor.index import ClassInfo, FunctionInfo, ModuleInfo, ProjectIndex, dotted
from auditor.location import Location
from auditor.matrix import constructor_parameters
from auditor.parse import LateParseError, ParsedModule


@dataclass(frozen=True)
class Guard:
    """A fact on the path to a site: the device expression is (or is not) an instance of classes."""

    subject: str  # code of the tested expression, e.g. `self.kv_cache`
    classes: tuple[ClassInfo, ...]  # empty: a class outside the audited tree
    negated: bool = False
    exact: bool = False  # `type(x) is C`: C itself, not its subclasses
    text: str = ""  # as written, for the evidence

    def describe(self) -> str:
        return f"not ({self.text})" if self.negated else self.text

    def admits(self, device: ClassInfo) -> bool:
        if self.exact:
            hit = device in self.classes
        else:
            hit = any(cls in device.mro() for cls in self.classes)
        return not hit if self.negated else hit


@dataclass(eq=False)
class ConstructionSite:
    """One call that constructs a host pool class, with what narrows the devices it receives."""

    host: ClassInfo
    module: ModuleInfo
    call: cst.Call
    function: str  # qualified name of the enclosing function ("<module>" at top level)
    how: str  # "direct call", "class chosen in the function", "dict keyed by the device type"
    arguments: dict[str, cst.BaseExpression]  # host parameter -> expression passed
    device_parameter: str | None  # the host parameter that receives the device pool
    device_text: str | None  # the expression passed for it
    guards: tuple[Guard, ...] = ()
    declared: ClassInfo | None = None  # declared type of the device expression
    declared_from: str = ""
    exact_declared: bool = False  # the device expression is a construction of `declared`
    unfollowed: str | None = None  # `*args` / `**kwargs` that could not be followed
    problems: list[str] = field(default_factory=list)
    local_names: frozenset[str] = frozenset()  # names the enclosing function binds

    @property
    def location(self) -> Location:
        return self.module.parsed.location(self.call)

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
        return all(g.admits(device) for g in self.guards if g.subject == self.device_text)

    def narrows(self) -> bool:
        """Does the code here say anything of the device's class (a guard or a declared type)?"""
        return self.declared is not None or any(
            g.subject == self.device_text and g.classes and not g.negated for g in self.guards
        )

    def signature(self) -> tuple:
        """What the evaluation of this site depends on: the arguments as written."""
        module = self.module.parsed
        passed = tuple(sorted((n, module.code(e)) for n, e in self.arguments.items()))
        return (self.module.path, passed, self.device_parameter, self.unfollowed)


# ---- which files to read ---------------------------------------------------------------------


def cpython_tree(module: ModuleInfo, cache: dict[str, ast.Module | None]) -> ast.Module | None:
    """CPython's syntax tree of a module, read again from disk: a quick look (which functions
    name a class, which attributes a class sets) costs far less than a libcst visit."""
    path = str(module.parsed.source.path)
    if path not in cache:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                data = module.parsed.source.path.read_bytes()
                cache[path] = compile(data, path, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
            cache[path] = None
    return cache[path]


def functions_naming(tree: ast.Module, prefix: str, needles: frozenset[str]) -> set[str]:
    """Qualified names (as `_functions` gives them) of the functions whose body names one of
    `needles` (a name, an attribute, or an imported name)."""
    found: set[str] = set()
    stack: list[tuple[ast.AST, str]] = [(tree, prefix)]
    while stack:
        node, name = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                qualname = f"{name}.{child.name}"
                if not isinstance(child, ast.ClassDef) and _names_any(child, needles):
                    found.add(qualname)
                stack.append((child, qualname))
            else:
                stack.append((child, name))
    return found


def _names_any(function: ast.AST, needles: frozenset[str]) -> bool:
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and node.id in needles:
            return True
        if isinstance(node, ast.Attribute) and node.attr in needles:
            return True
        if isinstance(node, ast.alias) and node.name.rsplit(".", 1)[-1] in needles:
            return True
    return False


def candidate_modules(
    index: ProjectIndex, parsed: list[ParsedModule], names: set[str]
) -> list[ModuleInfo]:
    """The modules whose text names a host class: a byte search, so that files the pre-filter
    left unparsed are parsed only when they may build a host pool."""
    needles = [name.encode() for name in names]
    found = []
    for module in parsed:
        data = module.data
        if data is None:  # parsed already: its bytes were dropped, read them again
            try:
                data = module.source.path.read_bytes()
            except OSError:
                continue
        if any(needle in data for needle in needles):
            info = index.module_for(module)
            if info is not None:
                found.append(info)
    return found


# ---- name resolution inside a function -------------------------------------------------------


class _Scope:
    """Names as a function sees them: its own imports first, then the module's."""

    def __init__(self, index: ProjectIndex, module: ModuleInfo, imports: dict[str, tuple]):
        self.index = index
        self.module = module
        self.imports = imports

    def resolve(self, node: cst.BaseExpression):
        name = dotted(node)
        if name is None:
            return None
        head, _, rest = name.partition(".")
        if head in self.imports:
            source, attr = self.imports[head]
            target = self.index.resolve_import(source, attr, near=self.module)
            for part in rest.split(".") if rest else []:
                if isinstance(target, ModuleInfo):
                    target = self.index.resolve_static(target, part)
                else:
                    return None
            return target
        return self.index.resolve_static(self.module, name)

    def resolve_class(self, node: cst.BaseExpression) -> ClassInfo | None:
        found = self.resolve(node)
        return found if isinstance(found, ClassInfo) else None


class _LocalImports(cst.CSTVisitor):
    """A function's imports (bound names) and every other name it binds."""

    def __init__(self, module: ModuleInfo, needles: frozenset[str] = frozenset()) -> None:
        self.module = module
        self.bound: dict[str, tuple] = {}
        self.names: set[str] = set()
        self.needles = needles
        self.mentions = False  # whether a name of `needles` appears

    def visit_Name(self, node: cst.Name) -> None:
        if node.value in self.needles:
            self.mentions = True

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.names.add(node.name.value)
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.names.add(node.name.value)
        return False

    def _bind(self, target: cst.CSTNode) -> None:
        if isinstance(target, cst.Name):
            self.names.add(target.value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._bind(element.value)
        elif isinstance(target, cst.StarredElement):
            self._bind(target.value)

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._bind(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._bind(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind(node.target)

    def visit_For(self, node: cst.For) -> None:
        self._bind(node.target)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._bind(node.target)

    def visit_AsName(self, node: cst.AsName) -> None:
        self._bind(node.name)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._bind(node.target)

    def visit_Import(self, node: cst.Import) -> None:
        self._record(node)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self._record(node)

    def _record(self, node) -> None:
        from auditor.index import import_bindings

        for bound, source, attr in import_bindings(self.module, node):
            self.bound.setdefault(bound, (source, attr))


def annotation_class(scope: _Scope, annotation: cst.BaseExpression) -> ClassInfo | None:
    """The class an annotation names: `X`, `"X"`, `Optional[X]`, `X | None`, `mod.X`."""
    if isinstance(annotation, cst.SimpleString):
        text = annotation.evaluated_value
        if not isinstance(text, str):
            return None
        try:
            annotation = cst.parse_expression(text)
        except cst.ParserSyntaxError:
            return None
    if isinstance(annotation, cst.Subscript) and dotted(annotation.value) in (
        "Optional",
        "typing.Optional",
    ):
        elements = annotation.slice
        if len(elements) == 1 and isinstance(elements[0].slice, cst.Index):
            return annotation_class(scope, elements[0].slice.value)
        return None
    if isinstance(annotation, cst.BinaryOperation) and isinstance(annotation.operator, cst.BitOr):
        sides = [annotation.left, annotation.right]
        named = [s for s in sides if not (isinstance(s, cst.Name) and s.value == "None")]
        return annotation_class(scope, named[0]) if len(named) == 1 else None
    return scope.resolve_class(annotation)


# ---- guards ------------------------------------------------------------------------------------


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _classes(scope: _Scope, node: cst.BaseExpression) -> tuple[ClassInfo, ...]:
    items = [e.value for e in node.elements] if isinstance(node, cst.Tuple) else [node]
    return tuple(c for c in (scope.resolve_class(i) for i in items) if c is not None)


def _type_subject(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """`type(x)` or `x.__class__`: the x."""
    if (
        isinstance(node, cst.Call)
        and dotted(node.func) == "type"
        and len(node.args) == 1
        and node.args[0].keyword is None
    ):
        return node.args[0].value
    if isinstance(node, cst.Attribute) and node.attr.value == "__class__":
        return node.value
    return None


def guards_of(scope: _Scope, test: cst.BaseExpression) -> tuple[list[Guard], list[Guard]]:
    """(facts when `test` is true, facts when it is false); only isinstance/type facts."""
    text = _code(test)
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        true, false = guards_of(scope, test.expression)
        return false, true
    if isinstance(test, cst.BooleanOperation):
        left_true, left_false = guards_of(scope, test.left)
        right_true, right_false = guards_of(scope, test.right)
        if isinstance(test.operator, cst.And):
            return left_true + right_true, []
        # `a or b`: false means both false; true gives a union when both test the same subject
        union: list[Guard] = []
        if (
            len(left_true) == len(right_true) == 1
            and left_true[0].subject == right_true[0].subject
            and not left_true[0].negated
            and not right_true[0].negated
            and left_true[0].exact == right_true[0].exact
        ):
            first, second = left_true[0], right_true[0]
            union = [Guard(first.subject, first.classes + second.classes, False, first.exact, text)]
        return union, left_false + right_false
    if (
        isinstance(test, cst.Call)
        and dotted(test.func) == "isinstance"
        and len(test.args) == 2
        and all(a.keyword is None and not a.star for a in test.args)
    ):
        subject = _code(test.args[0].value)
        classes = _classes(scope, test.args[1].value)
        guard = Guard(subject, classes, False, False, text)
        return [guard], [Guard(subject, classes, True, False, text)]
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        target = test.comparisons[0]
        subject = _type_subject(test.left)
        if subject is not None:
            operator = target.operator
            positive = isinstance(operator, (cst.Is, cst.Equal, cst.In))
            negative = isinstance(operator, (cst.IsNot, cst.NotEqual, cst.NotIn))
            if positive or negative:
                classes = _classes(scope, target.comparator)
                written = f"type({_code(subject)}) in {_code(target.comparator)}"
                if not isinstance(target.comparator, cst.Tuple):
                    written = f"type({_code(subject)}) is {_code(target.comparator)}"
                guard = Guard(_code(subject), classes, False, True, written)
                flipped = Guard(guard.subject, classes, True, True, guard.text)
                return ([guard], [flipped]) if positive else ([flipped], [guard])
    return [], []


def _always_leaves(block: cst.BaseSuite) -> bool:
    """Does the block end in return / raise / continue / break?"""
    statements = block.body
    if not statements:
        return False
    last = statements[-1]
    if isinstance(last, cst.SimpleStatementLine):
        return any(
            isinstance(s, (cst.Return, cst.Raise, cst.Continue, cst.Break)) for s in last.body
        )
    if isinstance(last, cst.If) and last.orelse is not None:
        other = last.orelse
        other_leaves = (
            _always_leaves(other.body) if isinstance(other, cst.Else) else _if_leaves(other)
        )
        return _always_leaves(last.body) and other_leaves
    return False


def _if_leaves(node: cst.If) -> bool:
    if node.orelse is None:
        return False
    other = node.orelse
    rest = _always_leaves(other.body) if isinstance(other, cst.Else) else _if_leaves(other)
    return _always_leaves(node.body) and rest


# ---- walking a function ----------------------------------------------------------------------


class _Calls(cst.CSTVisitor):
    """Calls in an expression or simple statement, not inside lambdas or nested definitions."""

    def __init__(self) -> None:
        self.calls: list[cst.Call] = []

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append(node)

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False


@dataclass
class _Binding:
    """An assignment `name = value` in a function, with the guards that hold where it is."""

    value: cst.BaseExpression
    guards: tuple[Guard, ...]


class _FunctionWalk:
    """Collects, for one function body, every call with its guards, and every assignment."""

    def __init__(self, scope: _Scope) -> None:
        self.scope = scope
        self.calls: list[tuple[cst.Call, tuple[Guard, ...]]] = []
        self.assignments: dict[str, list[_Binding]] = {}
        self.annotations: dict[str, cst.BaseExpression] = {}
        self.dict_keys: dict[str, dict[str, cst.BaseExpression]] = {}
        self.dict_unfollowed: dict[str, str] = {}

    def block(self, statements, guards: tuple[Guard, ...]) -> None:
        for statement in statements:
            if isinstance(statement, cst.If):
                guards = self.if_chain(statement, guards)
            elif isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
                continue  # walked as functions of their own
            elif isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    self.simple(small, guards)
            else:
                for name in ("body", "orelse", "finalbody"):
                    part = getattr(statement, name, None)
                    if isinstance(part, cst.BaseSuite):
                        self.block(part.body, guards)
                    elif isinstance(part, (cst.Else, cst.Finally)):
                        self.block(part.body.body, guards)
                for handler in getattr(statement, "handlers", ()):
                    self.block(handler.body.body, guards)
                header = getattr(statement, "iter", None) or getattr(statement, "test", None)
                if header is not None:
                    self.expression(header, guards)
                for item in getattr(statement, "items", ()):
                    self.expression(item.item, guards)

    def if_chain(self, node: cst.If, guards: tuple[Guard, ...]) -> tuple[Guard, ...]:
        """Walk an if/elif/else chain; return the guards that hold after it."""
        self.expression(node.test, guards)
        true, false = guards_of(self.scope, node.test)
        self.block(node.body.body, guards + tuple(true))
        rest = guards + tuple(false)
        if isinstance(node.orelse, cst.If):
            after_else = self.if_chain(node.orelse, rest)
        elif isinstance(node.orelse, cst.Else):
            self.block(node.orelse.body.body, rest)
            after_else = rest
        else:
            after_else = rest
        if _always_leaves(node.body):
            return after_else  # only paths where the test was false go on
        return guards

    def expression(self, node: cst.CSTNode, guards: tuple[Guard, ...]) -> None:
        collector = _Calls()
        node.visit(collector)
        self.calls.extend((call, guards) for call in collector.calls)

    def simple(self, small: cst.BaseSmallStatement, guards: tuple[Guard, ...]) -> None:
        self.expression(small, guards)
        if isinstance(small, cst.Assign) and len(small.targets) == 1:
            target = _code(small.targets[0].target)
            self.assignments.setdefault(target, []).append(_Binding(small.value, guards))
            self._dict_literal(target, small.value)
        elif isinstance(small, cst.AnnAssign):
            target = _code(small.target)
            self.annotations[target] = small.annotation.annotation
            if small.value is not None:
                self.assignments.setdefault(target, []).append(_Binding(small.value, guards))
                self._dict_literal(target, small.value)
        if isinstance(small, cst.Assign) and len(small.targets) == 1:
            target = small.targets[0].target
            if isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name):
                key = _string_key(target)
                name = target.value.value
                if key is not None and name in self.dict_keys:
                    self.dict_keys[name][key] = small.value
                elif name in self.dict_keys:
                    self.dict_unfollowed[name] = f"{_code(target)} has a key not written out"
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
            call = small.value
            func = call.func
            if (
                isinstance(func, cst.Attribute)
                and func.attr.value == "update"
                and isinstance(func.value, cst.Name)
                and func.value.value in self.dict_keys
            ):
                name = func.value.value
                for arg in call.args:
                    if arg.keyword is not None:
                        self.dict_keys[name][arg.keyword.value] = arg.value
                    elif isinstance(arg.value, cst.Dict) and _literal_dict(arg.value) is not None:
                        self.dict_keys[name].update(_literal_dict(arg.value))
                    else:
                        self.dict_unfollowed[name] = f"{_code(call)} is not followed"

    def _dict_literal(self, target: str, value: cst.BaseExpression) -> None:
        keys = None
        if isinstance(value, cst.Dict):
            keys = _literal_dict(value)
        elif isinstance(value, cst.Call) and dotted(value.func) == "dict":
            if all(a.keyword is not None for a in value.args):
                keys = {a.keyword.value: a.value for a in value.args}
        if keys is not None:
            self.dict_keys[target] = dict(keys)
            self.dict_unfollowed.pop(target, None)


def _string_key(target: cst.Subscript) -> str | None:
    if len(target.slice) != 1 or not isinstance(target.slice[0].slice, cst.Index):
        return None
    key = target.slice[0].slice.value
    if isinstance(key, cst.SimpleString) and isinstance(key.evaluated_value, str):
        return key.evaluated_value
    return None


def _literal_dict(node: cst.Dict) -> dict[str, cst.BaseExpression] | None:
    found = {}
    for element in node.elements:
        if not isinstance(element, cst.DictElement):
            return None
        key = element.key
        if not (isinstance(key, cst.SimpleString) and isinstance(key.evaluated_value, str)):
            return None
        found[key.evaluated_value] = element.value
    return found


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
    ) -> None:
        self.index = index
        self.hosts = hosts
        self.device_params = device_params
        self.names = frozenset(names) | {h.name for h in hosts}  # host classes and their tables
        self.trees: dict[str, ast.Module | None] = {}

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
                if naming is None or qualname in naming:
                    sites.extend(self._in_function(module, qualname, function, owner, needles))
        return sites

    def _in_function(
        self, module: ModuleInfo, qualname: str, function: cst.FunctionDef, owner, needles
    ) -> list[ConstructionSite]:
        imports = _LocalImports(module, needles)
        function.body.visit(imports)
        if not imports.mentions:  # names no host class, nor a table of them: nothing to find
            return []
        local_aliases = {
            bound
            for bound, (_, attr) in imports.bound.items()
            if attr is not None and attr.rsplit(".", 1)[-1] in self.names
        }
        self.callees = needles | local_aliases
        scope = _Scope(self.index, module, imports.bound)
        walk = _FunctionWalk(scope)
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
                self._declare(site, scope, walk, parameters, owner)
                found.append(site)
        return found

    def _hosts_called(
        self, scope: _Scope, walk: _FunctionWalk, func: cst.BaseExpression, depth: int = 0
    ) -> list[tuple[ClassInfo, tuple[Guard, ...], str]]:
        """Host classes a call's callee can be, each with the facts that choose it."""
        if depth > 3:
            return []
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
                    text = f"type({_code(subject)}) is {key_text}"
                    guard = Guard(_code(subject), (key_class,), False, True, text)
                    results.append((host, (guard,), "dict keyed by the device type"))
        return results

    def _table(
        self, scope: _Scope, walk: _FunctionWalk, node: cst.BaseExpression
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
            return _class_pairs(_Scope(self.index, where, {}), value)
        return []

    def _site(self, module, qualname, call, host, guards, how, walk) -> ConstructionSite:
        parameters = [p.name.value for p in constructor_parameters(host)]
        arguments: dict[str, cst.BaseExpression] = {}
        unfollowed = None
        problems: list[str] = []
        position = 0
        for arg in call.args:
            if arg.star == "*":
                unfollowed = f"*{_code(arg.value)} is not followed"
                position = len(parameters)
            elif arg.star == "**":
                name = _code(arg.value)
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
        return ConstructionSite(
            host=host,
            module=module,
            call=call,
            function=qualname,
            how=how,
            arguments=arguments,
            device_parameter=device_parameter,
            device_text=_code(device_node) if device_node is not None else None,
            guards=tuple(g for g in guards if g.classes or not g.negated),
            unfollowed=unfollowed,
            problems=problems,
        )

    def _declare(self, site, scope, walk, parameters, owner) -> None:
        """The declared type of the device expression, where the code states one."""
        text = site.device_text
        if text is None:
            return
        annotation = walk.annotations.get(text)
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
        if len(values) != 1 or not isinstance(values[0], cst.Call):
            return
        callee = scope.resolve(values[0].func) if dotted(values[0].func) else None
        if isinstance(callee, ClassInfo):
            site.declared, site.exact_declared = callee, True
            site.declared_from = f"{text} = {callee.name}(...)"
        elif isinstance(callee, FunctionInfo) and callee.node.returns is not None:
            returns = annotation_class(
                _Scope(self.index, callee.module, {}), callee.node.returns.annotation
            )
            if returns is not None:
                site.declared = returns
                site.declared_from = f"{text} = {callee.name}(...) -> {returns.name}"


def _dict_lookup(func: cst.BaseExpression):
    """`TABLE[type(x)]` or `TABLE.get(type(x))`: (TABLE, x)."""
    if isinstance(func, cst.Subscript) and len(func.slice) == 1:
        index = func.slice[0].slice
        if isinstance(index, cst.Index):
            subject = _type_subject(index.value)
            if subject is not None:
                return func.value, subject
    if (
        isinstance(func, cst.Call)
        and isinstance(func.func, cst.Attribute)
        and func.func.attr.value == "get"
        and func.args
    ):
        subject = _type_subject(func.args[0].value)
        if subject is not None:
            return func.func.value, subject
    return None


def _class_pairs(scope: _Scope, node: cst.Dict) -> list[tuple[ClassInfo, ClassInfo, str]]:
    pairs = []
    for element in node.elements:
        if isinstance(element, cst.DictElement):
            key, value = scope.resolve_class(element.key), scope.resolve_class(element.value)
            if key is not None and value is not None:
                pairs.append((key, value, _code(element.key)))
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
) -> list[ConstructionSite]:
    """Every construction site of the host classes, in files whose text names one of them."""
    if not hosts:
        return []
    names = {h.name for h in hosts}
    modules = candidate_modules(index, parsed, names)
    # a module-level table of host classes, used from a file that names none of them
    tables = {t for m in modules for t in _host_tables(m, names)} - names
    if tables:
        seen = {id(m) for m in modules}
        more = candidate_modules(index, parsed, tables)
        modules.extend(m for m in more if id(m) not in seen)
    modules.sort(key=lambda m: m.path)
    return SiteFinder(index, hosts, device_params, tables).find(modules)
