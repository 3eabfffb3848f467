"""Names as one function of the audited code sees them, read without running anything.

Function-local imports first, then the module's (through the index); annotations to classes;
and a quick look with CPython's own parser at which functions name a class at all, so that only
those are walked with libcst.
"""

from __future__ import annotations

import ast
import warnings

import libcst as cst

from auditor.frontend import walk
from auditor.frontend.index import ClassInfo, ModuleInfo, ProjectIndex, dotted, import_bindings
from auditor.frontend.parse import ParsedModule


def code_of(node: cst.CSTNode) -> str:
    """The source text of a node (of any tree)."""
    return cst.Module([]).code_for_node(node)


def cpython_tree(module: ModuleInfo, cache: dict[str, ast.Module | None]) -> ast.Module | None:
    """CPython's syntax tree of a module, read again from disk: a quick look (which functions
    name a class, which attributes a class sets) costs far less than a libcst visit."""
    return file_tree(module.parsed, cache)


def file_tree(parsed: ParsedModule, cache: dict[str, ast.Module | None]) -> ast.Module | None:
    """cpython_tree of a file not indexed (nor parsed by libcst) yet."""
    path = str(parsed.source.path)
    if path not in cache:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                data = parsed.source.path.read_bytes()
                cache[path] = compile(data, path, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
            cache[path] = None
    return cache[path]


def class_node(tree: ast.Module, cls: ClassInfo) -> ast.ClassDef | None:
    """The class's node in CPython's tree of its module, found by its qualified name."""
    parts = cls.qualname.removeprefix(cls.module.name + ".").split(".") if cls.module.name else []
    scope: list[ast.stmt] = tree.body
    node = None
    for part in parts or [cls.name]:
        node = next((n for n in scope if isinstance(n, ast.ClassDef) and n.name == part), None)
        if node is None:
            return None
        scope = node.body
    return node


def def_node(body: list[ast.stmt], name: str) -> ast.FunctionDef | None:
    """The function `name` defined directly in a module's or a class's body."""
    return next((n for n in body if isinstance(n, ast.FunctionDef) and n.name == name), None)


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
    for node in walk.nodes(function):
        if isinstance(node, ast.Name) and node.id in needles:
            return True
        if isinstance(node, ast.Attribute) and node.attr in needles:
            return True
        if isinstance(node, ast.alias) and node.name.rsplit(".", 1)[-1] in needles:
            return True
    return False


class FunctionScope:
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


class NamesRead(cst.CSTVisitor):
    """The variable names an expression reads (`x.kv_cache` reads `x`; an attribute's name is
    no variable)."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_Name(self, node: cst.Name) -> None:
        self.names.add(node.value)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)
        return False


class LocalNames(cst.CSTVisitor):
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
        for bound, source, attr in import_bindings(self.module, node):
            self.bound.setdefault(bound, (source, attr))


def annotation_class(scope: FunctionScope, annotation: cst.BaseExpression) -> ClassInfo | None:
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
