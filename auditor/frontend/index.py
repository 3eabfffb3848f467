"""Stage 3: index the audited tree: modules, classes, functions, imports and the class hierarchy.

Everything here is static: names are resolved by following import statements through the
indexed modules, never by importing anything.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import libcst as cst

from auditor.frontend.parse import FileError, LateParseError, ParsedModule, on_fresh_stack

NEUTRAL_BASES = frozenset(
    {"object", "abc.ABC", "ABC", "typing.Generic", "Generic", "typing.Protocol", "Protocol"}
)


@dataclass(eq=False)
class FunctionInfo:
    """A function or method defined in the audited tree."""

    name: str
    qualname: str
    module: ModuleInfo
    node: cst.FunctionDef
    owner: ClassInfo | None = None
    _decorators: tuple[str, ...] | None = field(default=None, repr=False)

    @property
    def decorators(self) -> list[str]:
        """Each decorator's source (remembered: asked for on every method lookup)."""
        if self._decorators is None:
            parsed = self.module.parsed
            self._decorators = tuple(parsed.code(d.decorator).strip() for d in self.node.decorators)
        return list(self._decorators)

    def has_decorator(self, *names: str) -> bool:
        """Whether a decorator is one of `names`, by its name or its last dotted part
        (`functools.cached_property` is `cached_property`)."""
        for decorator in self.decorators:
            base = decorator.split("(")[0]
            if base in names or base.rsplit(".", 1)[-1] in names:
                return True
        return False

    def is_property(self) -> bool:
        """Read as an attribute: `@property`, `@cached_property` (functools' too)."""
        return self.has_decorator("property", "cached_property")


@dataclass(eq=False)
class ClassInfo:
    """A class defined in the audited tree, with its methods and (statically resolved) bases."""

    name: str
    qualname: str
    module: ModuleInfo
    node: cst.ClassDef
    methods: dict[str, FunctionInfo] = field(default_factory=dict)
    bases: list[ClassInfo] = field(default_factory=list)
    external_bases: list[str] = field(default_factory=list)
    # classes defined in its body (`class State:` read as `self.State(...)`), by name
    nested: dict[str, ClassInfo] = field(default_factory=dict)
    # the MRO and opacity last computed, and the bases generation they were computed at
    _mro: tuple[ClassInfo, ...] = field(default=(), repr=False)
    _opaque: bool = field(default=False, repr=False)
    _mro_generation: int = field(default=-1, repr=False)

    def __repr__(self) -> str:
        return f"<class {self.qualname}>"

    @property
    def location(self):
        return self.module.parsed.location(self.node.name)

    def mro(self) -> list[ClassInfo]:
        """Method resolution order over in-tree classes (C3, falling back to depth-first).

        Remembered until any class's bases are linked again (`relinked`): an ancestor's new
        base changes this order too. The interpreter asks for it on every attribute lookup.
        """
        if self._mro_generation != _generation:
            self._remember_mro()
        return list(self._mro)

    def _remember_mro(self) -> None:
        order = _c3(self, set())
        self._mro = tuple(order)
        self._opaque = any(
            base not in NEUTRAL_BASES and not base.endswith(("Enum", "IntEnum"))
            for cls in order
            for base in cls.external_bases
        )
        self._mro_generation = _generation

    def is_abstract(self) -> bool:
        abstract: set[str] = set()
        for cls in reversed(self.mro()):
            for name, method in cls.methods.items():
                if method.has_decorator("abstractmethod", "abc.abstractmethod"):
                    abstract.add(name)
                else:
                    abstract.discard(name)
        return bool(abstract)

    def has_opaque_base(self) -> bool:
        """True when some ancestor is defined outside the audited tree (its members are unknown)."""
        if self._mro_generation != _generation:
            self._remember_mro()
        return self._opaque

    def find_method(self, name: str) -> FunctionInfo | None:
        if self._mro_generation != _generation:
            self._remember_mro()
        for cls in self._mro:
            if name in cls.methods:
                return cls.methods[name]
        return None


def _path_agreement(module: ModuleInfo, dotted: str) -> int:
    """How many trailing parts of `dotted` the module's own path spells (`sglang.srt.utils`
    is `.../sglang/srt/utils/__init__.py` more than `.../musa/layers/utils/__init__.py`)."""
    path = module.parsed.source.path
    parts = list(path.parent.parts if module.is_package else path.with_suffix("").parts)
    count = 0
    for part in reversed(dotted.split(".")):
        if not parts or parts.pop() != part:
            break
        count += 1
    return count


_generation = 0  # bumped whenever bases are linked: remembered MROs older than it are stale


def relinked() -> None:
    """Some class's bases (or external bases) changed: every remembered MRO is stale."""
    global _generation
    _generation += 1


def _c3(cls: ClassInfo, visiting: set[int]) -> list[ClassInfo]:
    if id(cls) in visiting:
        return [cls]
    visiting = visiting | {id(cls)}
    sequences = [_c3(base, visiting) for base in cls.bases] + [list(cls.bases)]
    result = [cls]
    while True:
        sequences = [seq for seq in sequences if seq]
        if not sequences:
            return result
        for seq in sequences:
            head = seq[0]
            if not any(head in other[1:] for other in sequences):
                break
        else:  # inconsistent hierarchy: fall back to depth-first order
            for seq in sequences:
                for item in seq:
                    if item not in result:
                        result.append(item)
            return result
        result.append(head)
        for seq in sequences:
            if seq and seq[0] is head:
                del seq[0]


@dataclass(eq=False)
class ModuleInfo:
    """A parsed module and what its top level binds (statically)."""

    name: str
    parsed: ParsedModule
    classes: dict[str, ClassInfo] = field(default_factory=dict)
    functions: dict[str, FunctionInfo] = field(default_factory=dict)
    imports: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    star_imports: list[str] = field(default_factory=list)  # `from x import *` sources
    is_package: bool = False

    @property
    def path(self) -> str:
        return self.parsed.display_path

    @property
    def tree_root(self):
        """The folder its dotted name starts from: several trees may hold the same names."""
        depth = len(self.name.split(".")) if self.name else 1
        path = self.parsed.source.path
        return path.parents[depth - 1 + (1 if self.is_package else 0)] if depth else path.parent


def absolute_module(module: ModuleInfo, relative: int, name: str | None) -> str:
    """Resolve `from ..x import y`'s module part against the importing module."""
    if not relative:
        return name or ""
    parts = module.name.split(".")
    keep = len(parts) - relative + (1 if module.is_package else 0)
    base = parts[: max(keep, 0)]
    if name:
        base.append(name)
    return ".".join(base)


def dotted(node: cst.BaseExpression) -> str | None:
    """`a.b.c` as a string, or None if the expression is not a dotted name."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = dotted(node.value)
        return f"{head}.{node.attr.value}" if head else None
    return None


def import_bindings(
    module: ModuleInfo, statement: cst.Import | cst.ImportFrom
) -> list[tuple[str, str, str | None]]:
    """(bound name, module, attribute or None) for each name an import statement binds."""
    bindings: list[tuple[str, str, str | None]] = []
    if isinstance(statement, cst.Import):
        for alias in statement.names:
            full = dotted(alias.name) or ""
            if alias.asname is not None:
                bindings.append((alias.asname.name.value, full, None))
            else:
                head = full.split(".")[0]
                bindings.append((head, head, None))
        return bindings
    source = absolute_module(
        module, len(statement.relative), dotted(statement.module) if statement.module else None
    )
    if isinstance(statement.names, cst.ImportStar):
        return bindings
    for alias in statement.names:
        attr = dotted(alias.name) or ""
        bound = alias.asname.name.value if alias.asname is not None else attr
        bindings.append((bound, source, attr))
    return bindings


class _TopLevelCollector(cst.CSTVisitor):
    """Collects classes, functions and imports; imports anywhere (functions, TYPE_CHECKING)."""

    def __init__(self, module: ModuleInfo) -> None:
        self.module = module
        self.class_stack: list[ClassInfo] = []
        self.function_depth = 0

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        if self.function_depth:
            return False
        prefix = f"{self.class_stack[-1].qualname}." if self.class_stack else f"{self.module.name}."
        info = ClassInfo(node.name.value, prefix + node.name.value, self.module, node)
        if not self.class_stack:
            self.module.classes.setdefault(node.name.value, info)
        else:
            self.class_stack[-1].nested.setdefault(node.name.value, info)
        self.class_stack.append(info)
        return True

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        if not self.function_depth:
            self.class_stack.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        if self.function_depth == 0:
            owner = self.class_stack[-1] if self.class_stack else None
            prefix = owner.qualname if owner else self.module.name
            info = FunctionInfo(
                node.name.value, f"{prefix}.{node.name.value}", self.module, node, owner
            )
            if owner is not None:
                # `@x.setter` / `@x.deleter` redefine `x`; reads still go through the getter
                accessor = any(
                    dotted(d.decorator) in (f"{info.name}.setter", f"{info.name}.deleter")
                    for d in node.decorators
                )
                if not (accessor and info.name in owner.methods):
                    owner.methods[node.name.value] = info
            else:
                self.module.functions.setdefault(node.name.value, info)
        self.function_depth += 1
        return False  # bodies are read by the interpreter when it runs them

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.function_depth -= 1

    def visit_Import(self, node: cst.Import) -> bool:
        self._record(node)
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        self._record(node)
        return False

    def _record(self, node: cst.Import | cst.ImportFrom) -> None:
        if self.class_stack or self.function_depth:
            return  # local imports are bound when the interpreter runs them
        if isinstance(node, cst.ImportFrom) and isinstance(node.names, cst.ImportStar):
            module = dotted(node.module) if node.module else None
            self.module.star_imports.append(
                absolute_module(self.module, len(node.relative), module)
            )
        for bound, source, attr in import_bindings(self.module, node):
            self.module.imports.setdefault(bound, (source, attr))


class ProjectIndex:
    """All indexed modules of an audit, with name resolution across them.

    Modules listed in `eager` (all of them when it is None) are indexed up front; any other
    module is indexed the first time a name resolution reaches it (`find_module`), from the
    parsed-on-demand files of the discovery. `on_error` receives a FileError for a module
    whose tree libcst rejects when it is first needed; that module then does not exist.
    """

    def __init__(
        self,
        parsed_modules: list[ParsedModule],
        eager: set[int] | None = None,
        on_error: Callable[[FileError], None] | None = None,
    ) -> None:
        self.modules: dict[str, ModuleInfo] = {}  # unique keys: the name, or name@root
        self._by_name: dict[str, list[ModuleInfo]] = {}  # indexed modules, in discovery order
        self._known: dict[str, list[ParsedModule]] = {}  # every module, indexed or not
        self._keys: dict[int, str] = {}
        self._order: dict[int, int] = {}
        self._indexed: dict[int, ModuleInfo | None] = {}  # None: libcst rejected the file
        self._on_error = on_error
        # ids of the classes the catalog found to be pools: the interpreter runs the class
        # decorators that register them (`@register_pool("host")`), and only theirs
        self.pool_classes: frozenset[int] = frozenset()
        self.registering: dict[int, bool] = {}  # id(module) -> it registers a pool class
        self._suffix_cache: dict[str, list[ModuleInfo]] = {}
        self._found: dict[tuple[str, int], tuple[ModuleInfo | None, ModuleInfo | None]] = {}
        self._subclasses: dict[int, list[ClassInfo]] | None = None
        taken: set[str] = set()
        first: list[ParsedModule] = []
        for parsed in parsed_modules:
            name = parsed.source.module
            key = name if name not in taken else f"{name}@{parsed.source.path}"
            if key in taken:
                continue  # the same file given twice
            taken.add(key)
            self._keys[id(parsed)] = key
            self._order[id(parsed)] = len(self._order)
            self._known.setdefault(name, []).append(parsed)
            if eager is None or id(parsed) in eager:
                first.append(parsed)
        collected = [self._collect(parsed) for parsed in first]
        for module in collected:
            if module is not None:
                for cls in module.classes.values():
                    self._link_bases(cls)

    def _collect(self, parsed: ParsedModule) -> ModuleInfo | None:
        """Index one module's top level (its bases are linked by the caller)."""
        if id(parsed) in self._indexed:
            return self._indexed[id(parsed)]
        try:
            parsed.tree  # noqa: B018 - parses the file if it was not yet
        except LateParseError as late:
            self._indexed[id(parsed)] = None
            if self._on_error is not None:
                self._on_error(late.error)
            return None
        name = parsed.source.module
        info = ModuleInfo(name, parsed, is_package=parsed.source.path.name == "__init__.py")
        _collect_top_level(info)
        self._indexed[id(parsed)] = info
        self.modules[self._keys[id(parsed)]] = info
        same_name = self._by_name.setdefault(name, [])
        same_name.append(info)
        same_name.sort(key=lambda m: self._order[id(m.parsed)])
        self._subclasses = None
        return info

    def _load(self, parsed: ParsedModule) -> ModuleInfo | None:
        """Index a module on first need: parse, collect, link its classes' bases."""
        if id(parsed) in self._indexed:
            return self._indexed[id(parsed)]

        def load() -> ModuleInfo | None:
            module = self._collect(parsed)
            if module is not None:
                for cls in module.classes.values():
                    self._link_bases(cls)
            return module

        # asked for from anywhere, maybe deep inside the interpreter: start from a fresh stack
        return on_fresh_stack(load)

    def module_for(self, parsed: ParsedModule) -> ModuleInfo | None:
        """The module of one discovered file, indexing it now if it was not (None: libcst
        rejected it, or the same file was given twice)."""
        if id(parsed) not in self._keys:
            return None
        return self._load(parsed)

    def _named(self, name: str) -> list[ModuleInfo]:
        """The indexed modules called `name`, indexing any not yet indexed."""
        for parsed in self._known.get(name, ()):
            if id(parsed) not in self._indexed:
                self._load(parsed)
        return self._by_name.get(name, [])

    @property
    def subclasses(self) -> dict[int, list[ClassInfo]]:
        """Direct subclasses of each indexed class (by id), in discovery order."""
        if self._subclasses is None:
            table: dict[int, list[ClassInfo]] = {}
            for cls in self.all_classes():
                for base in cls.bases:
                    table.setdefault(id(base), []).append(cls)
            self._subclasses = table
        return self._subclasses

    def all_classes(self) -> list[ClassInfo]:
        """The classes of every module indexed so far, in discovery order."""
        modules = sorted(self.modules.values(), key=lambda m: self._order[id(m.parsed)])
        return [cls for module in modules for cls in module.classes.values()]

    def find_module(self, name: str, near: ModuleInfo | None = None) -> ModuleInfo | None:
        """The module an import names, preferring one audited from the same root as `near`.

        Exact name first, else the audited module whose name is the longest dotted suffix
        (`from sglang.srt.x import Y` when `sglang` is not itself a package in the tree).
        Remembered per (name, near): the first search indexes every module it may return,
        so the answer cannot change afterwards (the interpreter asks again at every point).
        """
        key = (name, id(near))
        remembered = self._found.get(key)
        if remembered is not None and remembered[0] is near:
            return remembered[1]
        found = self._search_module(name, near)
        self._found[key] = (near, found)  # `near` kept: its id is not reused meanwhile
        return found

    def _search_module(self, name: str, near: ModuleInfo | None) -> ModuleInfo | None:
        candidates = self._named(name)
        if not candidates:
            if name not in self._suffix_cache:
                best: list[ModuleInfo] = []
                suffixes = [known for known in self._known if name.endswith("." + known)]
                for candidate in sorted(suffixes, key=len, reverse=True):
                    best = self._named(candidate)
                    if best:
                        break
                self._suffix_cache[name] = best
            candidates = self._suffix_cache[name]
        if not candidates:
            return None
        if len(candidates) > 1:  # prefer the module whose folders spell more of the import
            best = max(_path_agreement(module, name) for module in candidates)
            candidates = [m for m in candidates if _path_agreement(m, name) == best]
        if near is not None and len(candidates) > 1:
            for module in candidates:
                if module.tree_root == near.tree_root:
                    return module
        return candidates[0]

    def resolve_static(self, module: ModuleInfo, name: str, depth: int = 0):
        """Follow a top-level name through imports to a ClassInfo, FunctionInfo or ModuleInfo.

        Returns a dotted string for names defined outside the tree, None if unbound.
        """
        if depth > 20:
            return None
        head, _, rest = name.partition(".")
        target = None
        if head in module.classes:
            target = module.classes[head]
        elif head in module.functions:
            target = module.functions[head]
        elif head in module.imports:
            source, attr = module.imports[head]
            target = self.resolve_import(source, attr, depth + 1, module)
        else:
            return None
        for part in rest.split(".") if rest else []:
            if isinstance(target, ModuleInfo):
                target = self.resolve_static(target, part, depth + 1)
            elif isinstance(target, str):
                target = f"{target}.{part}"
            else:
                return None
        return target

    def resolve_import(
        self, source: str, attr: str | None, depth: int = 0, near: ModuleInfo | None = None
    ):
        if attr is None:
            module = self.find_module(source, near)
            return module if module is not None else source
        module = self.find_module(source, near)
        if module is None:
            submodule = self.find_module(f"{source}.{attr}", near) if source else None
            return submodule if submodule is not None else f"{source}.{attr}"
        found = self.resolve_static(module, attr, depth + 1)
        if found is None:
            for star in module.star_imports:
                found = self.resolve_import(star, attr, depth + 1, module)
                if found is not None and not isinstance(found, str):
                    return found
            return self.find_module(f"{module.name}.{attr}", module)
        return found

    def _link_bases(self, cls: ClassInfo, outer: ClassInfo | None = None) -> None:
        try:
            self._resolve_bases(cls, outer)
            for inner in cls.nested.values():
                self._link_bases(inner, cls)
        finally:
            relinked()

    def _resolve_bases(self, cls: ClassInfo, outer: ClassInfo | None = None) -> None:
        for arg in cls.node.bases:
            name = dotted(arg.value)
            if name is None:
                cls.external_bases.append(cls.module.parsed.code(arg.value))
                continue
            if outer is not None and name in outer.nested:  # a sibling in the class body
                target = outer.nested[name]
            else:
                target = self.resolve_static(cls.module, name)
            if isinstance(target, ClassInfo) and target is not cls:
                cls.bases.append(target)
            elif isinstance(target, str):
                cls.external_bases.append(target)
            else:
                cls.external_bases.append(name)

    def all_subclasses(self, cls: ClassInfo) -> list[ClassInfo]:
        """`cls` and every class below it in the tree, in a stable order."""
        ordered: list[ClassInfo] = []
        stack = [cls]
        while stack:
            current = stack.pop(0)
            if current in ordered:
                continue
            ordered.append(current)
            stack.extend(self.subclasses.get(id(current), []))
        return ordered


def _collect_top_level(info: ModuleInfo) -> None:
    info.parsed.tree.visit(_TopLevelCollector(info))
