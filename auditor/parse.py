"""Stage 2: parse each file with libcst; a bad file becomes a FileError.

Positions (line and column of every node) are a codegen pass over the whole tree, costlier
than the parse itself, and most modules never report a location: they are computed for a
module on the first read of one of its locations, on a fresh stack (see `on_fresh_stack`).
"""

from __future__ import annotations

import ast
import io
import threading
import tokenize
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from auditor.discover import SourceFile
from auditor.location import Location

MAX_FILE_BYTES = 8 * 1024 * 1024
# libcst's native parser recurses once per nesting level and, when its stack runs out, kills
# the process (a segfault, not an exception): around 1,000 nested brackets or 5,000 chained
# `lambda`/`.attr`/`elif`. Nesting is measured on CPython's own syntax tree (CPython's parser
# raises instead of crashing) and bounded before libcst runs; files CPython rejects (newer
# syntax, or none) are bounded by an estimate from their tokens.
MAX_BRACKET_DEPTH = 200  # CPython's own limit: deeper code is not valid Python
MAX_TREE_DEPTH = 1000  # syntax-tree depth (libcst's positions give up at a few hundred anyway)
MAX_NESTING = 2000  # estimated syntax-tree depth, in tokens (a bracket counts 5)
TOO_DEEP = "file is nested too deeply to parse"
# Positions are computed lazily only for files no deeper than this (syntax-tree levels): the
# codegen pass recurses a few frames per level and gives up past about 95 levels (nested
# subscripts), so deeper files get theirs while being parsed, where a failure is still the
# file's E902 as before. Real code stays under 50 (SGLang 0.4-0.5: 45 at most).
LAZY_POSITIONS_DEPTH = 50

T = TypeVar("T")


def on_fresh_stack(function: Callable[[], T]) -> T:
    """`function()`, run in a new thread: a fresh Python and C stack whatever the caller's depth.

    Work done on first need (positions, loading a module) may be asked for from deep inside
    the interpreter; recursing from there could hit the recursion limit where the same work
    done up front did not, and change a result.
    """
    outcome: list[tuple[bool, Any]] = []

    def run() -> None:
        try:
            outcome.append((True, function()))
        except BaseException as error:  # noqa: BLE001 - re-raised in the caller's thread
            outcome.append((False, error))

    thread = threading.Thread(target=run, name="layout-audit-fresh-stack", daemon=True)
    thread.start()
    thread.join()
    ok, value = outcome[0]
    if ok:
        return value
    raise value


@dataclass(frozen=True)
class FileError:
    """A file the auditor could not read or parse; reported, and the audit goes on."""

    path: str
    line: int
    column: int
    message: str


class LateParseError(Exception):
    """libcst rejected a file CPython had accepted, when its tree was first needed."""

    def __init__(self, error: FileError) -> None:
        super().__init__(error.message)
        self.error = error


class ParsedModule:
    """One file that CPython's parser accepted: its libcst syntax tree, parsed on first use,
    and the position of every node, computed once one is asked for."""

    def __init__(
        self,
        source: SourceFile,
        display_path: str,
        tree: cst.Module | None = None,
        positions: dict[cst.CSTNode, CodeRange] | None = None,
        data: bytes | None = None,
        outline: Outline | None = None,
    ) -> None:
        self.source = source
        self.outline = outline  # None: not known (CPython did not parse the file)
        self.display_path = display_path
        self._tree = tree
        self._positions = positions
        self._data = data if tree is None else None
        self._error: FileError | None = None
        # what suppressions.scan looks for; files without it cannot hold a suppression
        self.may_suppress = data is None or b"layout-audit" in data.lower()
        if tree is None and data is None:
            raise ValueError("a ParsedModule needs its tree or its bytes")

    def __repr__(self) -> str:
        return f"<ParsedModule {self.display_path}>"

    @property
    def tree(self) -> cst.Module:
        """The libcst tree; raises LateParseError if libcst rejects the file."""
        if self._tree is None:
            if self._error is None:
                try:
                    outcome = _libcst_parse(self._data, self.display_path)
                except Exception as error:  # noqa: BLE001 - this file's error, not the audit's
                    message = f"cannot parse file: {type(error).__name__}: {error}"
                    outcome = FileError(self.display_path, 1, 1, message)
                self._data = None
                if isinstance(outcome, FileError):
                    self._error = outcome
                else:
                    self._tree = outcome
            if self._error is not None:
                raise LateParseError(self._error)
        return self._tree

    @property
    def data(self) -> bytes | None:
        """The file's bytes until its tree is parsed (None afterwards)."""
        return self._data

    @property
    def is_parsed(self) -> bool:
        """Whether libcst has parsed the file (successfully or not)."""
        return self._tree is not None or self._error is not None

    @property
    def positions(self) -> dict[cst.CSTNode, CodeRange]:
        """Every node's range, computed on first use (an empty table if libcst gives up)."""
        if self._positions is None:
            try:
                self._positions = on_fresh_stack(lambda: _resolve_positions(self.tree))
            except Exception as error:  # libcst may mask a RecursionError with a KeyError
                if not _from_recursion(error):
                    raise
                self._positions = {}
        return self._positions

    @property
    def has_positions(self) -> bool:
        """Whether the positions were computed (for tests and the benchmark)."""
        return self._positions is not None

    def location(self, node: cst.CSTNode) -> Location:
        """Where `node` is; the line and columns are looked up when first read."""
        if self._positions is not None:
            return self.resolve_location(node)
        return _LazyLocation(self, node)

    def resolve_location(self, node: cst.CSTNode) -> Location:
        code_range = self.positions.get(node)
        if code_range is None:
            return Location(self.display_path, 1, 1)
        return Location(
            self.display_path,
            code_range.start.line,
            code_range.start.column + 1,
            code_range.end.line,
            code_range.end.column + 1,
        )

    def code(self, node: cst.CSTNode) -> str:
        return self.tree.code_for_node(node)


def _resolve_positions(tree: cst.Module) -> dict[cst.CSTNode, CodeRange]:
    wrapper = MetadataWrapper(tree, unsafe_skip_copy=True)
    return dict(wrapper.resolve(PositionProvider))


_FIELDS = ("line", "column", "end_line", "end_column")


class _LazyLocation(Location):
    """A Location whose line and columns are looked up (with the module's positions) on first
    read. It equals, hashes, orders and prints exactly as the Location it stands for."""

    def __init__(self, module: ParsedModule, node: cst.CSTNode) -> None:
        object.__setattr__(self, "path", module.display_path)
        object.__setattr__(self, "_pending", (module, node))

    def _resolved(self) -> Location:
        resolved = self.__dict__.get("_location")
        if resolved is None:
            module, node = self._pending
            resolved = module.resolve_location(node)
            object.__setattr__(self, "_location", resolved)
            object.__setattr__(self, "_pending", None)
        return resolved

    line = property(lambda self: self._resolved().line)
    column = property(lambda self: self._resolved().column)
    end_line = property(lambda self: self._resolved().end_line)
    end_column = property(lambda self: self._resolved().end_column)

    def _key(self) -> tuple:
        resolved = self._resolved()
        return (resolved.path, *(getattr(resolved, name) for name in _FIELDS))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Location):
            return NotImplemented
        return self._key() == _key(other)

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, Location):
            return NotImplemented
        return self._key() != _key(other)

    def __lt__(self, other: object) -> bool:
        return self._key() < _key(other) if isinstance(other, Location) else NotImplemented

    def __le__(self, other: object) -> bool:
        return self._key() <= _key(other) if isinstance(other, Location) else NotImplemented

    def __gt__(self, other: object) -> bool:
        return self._key() > _key(other) if isinstance(other, Location) else NotImplemented

    def __ge__(self, other: object) -> bool:
        return self._key() >= _key(other) if isinstance(other, Location) else NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())  # as the dataclass hashes a Location: its fields, in order

    def __repr__(self) -> str:
        return repr(self._resolved())

    def __reduce__(self):
        return (Location, self._key())


def _key(location: Location) -> tuple:
    if isinstance(location, _LazyLocation):
        return location._key()
    return (location.path, *(getattr(location, name) for name in _FIELDS))


def nesting_problem(data: bytes) -> tuple[int, int, str] | None:
    """(line, column, message) where `data` nests too deeply to parse safely, else None."""
    return _nesting(data)[0]


def _nesting(data: bytes) -> tuple[tuple[int, int, str] | None, ast.Module | None, int]:
    """nesting_problem's answer, CPython's syntax tree (None when CPython gave none) and its
    depth."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. invalid escape sequences
            tree = compile(data, "<audited>", "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as error:
        if "too many nested parentheses" in str(error.msg):
            where = error.lineno or 1, max(error.offset or 1, 1)
            return (*where, "too many nested parentheses"), None, 0
        return token_nesting_problem(data), None, 0
    except (RecursionError, MemoryError):  # CPython's "too complex" / deep AST construction
        return (1, 1, TOO_DEEP), None, 0
    except ValueError:
        return None, None, 0
    problem, depth = _tree_depth(tree)
    return problem, tree, depth


def _tree_depth_problem(tree: ast.AST) -> tuple[int, int, str] | None:
    return _tree_depth(tree)[0]


@dataclass(frozen=True)
class ClassOutline:
    """What the file says of one class without libcst: enough to tell whether it may be a pool."""

    name: str
    bases: frozenset[str]  # every name in its base expressions (`a.B[T]`: a, B, T)
    init_params: frozenset[str]  # the parameters of the `__init__` methods in its body


@dataclass(frozen=True)
class Outline:
    """The classes of a file (any depth outside functions) and its `import x as y` aliases."""

    classes: tuple[ClassOutline, ...]
    aliases: tuple[tuple[str, str], ...]  # (name imported, name bound)


_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")


def outline(tree: ast.Module) -> Outline:
    """Classes as the index (index.py) will see them: in the module body, in class bodies and in
    `if`/`try`/`with`/loop blocks, not inside functions; `__init__` found the same way."""
    classes: list[tuple[str, frozenset[str], set[str]]] = []
    aliases: list[tuple[str, str]] = []
    stack: list[tuple[list, set[str] | None]] = [(tree.body, None)]
    while stack:
        statements, init_params = stack.pop()
        for node in statements:
            if isinstance(node, ast.ClassDef):
                bases = frozenset(
                    name
                    for expression in (*node.bases, *(k.value for k in node.keywords))
                    for part in ast.walk(expression)
                    for name in (getattr(part, "id", None), getattr(part, "attr", None))
                    if name
                )
                params: set[str] = set()
                classes.append((node.name, bases, params))
                stack.append((node.body, params))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if init_params is not None and node.name == "__init__":
                    arguments = node.args
                    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
                    init_params.update(argument.arg for argument in every)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for alias in node.names:
                    if alias.asname:
                        aliases.append((alias.name.rsplit(".", 1)[-1], alias.asname))
            else:
                for block in _BLOCKS:
                    children = getattr(node, block, None)
                    if isinstance(children, list) and children:
                        if isinstance(children[0], (ast.excepthandler, ast.match_case)):
                            for child in children:
                                stack.append((child.body, init_params))
                        else:
                            stack.append((children, init_params))
    return Outline(
        tuple(ClassOutline(name, bases, frozenset(params)) for name, bases, params in classes),
        tuple(aliases),
    )


_SKIPPED_CHILDREN = (ast.expr_context, ast.operator, ast.boolop, ast.cmpop)
# fields that never hold a counted child (names, flags, contexts, comparison operators)
_LEAF_FIELDS = frozenset(
    "ctx id attr arg kind type_comment is_async level conversion simple module asname tag ops".split()
)
_SHAPES: dict[type, tuple[tuple[str, ...], bool, bool]] = {}


def _shape(kind: type) -> tuple[tuple[str, ...], bool, bool]:
    """(fields that may hold children, has a line, is a BoolOp) of a node type."""
    shape = _SHAPES.get(kind)
    if shape is None:
        fields = tuple(
            name
            for name in kind._fields
            if name not in _LEAF_FIELDS and not (kind is ast.Constant and name == "value")
        )
        has_line = "lineno" in kind._attributes or "lineno" in kind._fields
        shape = _SHAPES[kind] = (fields, has_line, kind is ast.BoolOp)
    return shape


def _tree_depth(tree: ast.AST) -> tuple[tuple[int, int, str] | None, int]:
    """The first node nested deeper than MAX_TREE_DEPTH, counting `a and b and c` as libcst
    does (one level per operator), without recursing; and the deepest level seen.

    The walk of `ast.iter_child_nodes`, in the same order, without its generators: this runs
    over every node of every audited file.
    """
    node_type, skipped = ast.AST, _SKIPPED_CHILDREN
    stack: list[tuple[ast.AST, int, ast.AST]] = [(tree, 0, tree)]
    pop, push = stack.pop, stack.append
    deepest = 0
    while stack:
        node, depth, positioned = pop()
        fields, has_line, is_boolop = _SHAPES.get(type(node)) or _shape(type(node))
        if has_line:
            positioned = node
        if depth > deepest:
            deepest = depth
            if depth > MAX_TREE_DEPTH:
                line = getattr(positioned, "lineno", 1)
                return (line, getattr(positioned, "col_offset", 0) + 1, TOO_DEEP), depth
        below = depth + 1 + (len(node.values) - 2 if is_boolop else 0)
        for name in fields:
            value = getattr(node, name, None)
            if type(value) is list:
                for item in value:
                    if isinstance(item, node_type) and not isinstance(item, skipped):
                        push((item, below, positioned))
            elif isinstance(value, node_type) and not isinstance(value, skipped):
                push((value, below, positioned))
    return None, deepest


def token_nesting_problem(data: bytes) -> tuple[int, int, str] | None:
    """Like nesting_problem, for files CPython cannot parse: an estimate from the tokens.

    The estimate counts, at every token, the tokens of each open bracket since its last comma
    (`not not x`, `a.b.c`, `lambda: lambda: 1` all nest), five per open bracket, and two per
    `elif` in an unbroken chain. Files the tokenizer rejects are left to libcst to report.
    """
    segments = [0]  # tokens since the last comma, per open bracket
    chains = [0]  # consecutive `elif` lines, per indentation level
    open_tokens = chain_total = 0
    line_start = True
    skipped = (tokenize.NL, tokenize.COMMENT, tokenize.ENCODING, tokenize.ENDMARKER)
    try:
        for token in tokenize.tokenize(io.BytesIO(data).readline):
            kind, text = token.type, token.string
            if kind in skipped:
                continue
            if kind == tokenize.NEWLINE:
                segments, open_tokens, line_start = [0], 0, True
                continue
            if kind == tokenize.INDENT:
                chains.append(0)
                continue
            if kind == tokenize.DEDENT:
                if len(chains) > 1:
                    chain_total -= chains.pop()
                continue
            if line_start:
                line_start = False
                if kind == tokenize.NAME and text == "elif":
                    chains[-1] += 1
                    chain_total += 1
                elif not (kind == tokenize.NAME and text == "else"):
                    chain_total -= chains[-1]
                    chains[-1] = 0
            if kind == tokenize.OP and text in ("(", "[", "{"):
                segments[-1] += 1
                open_tokens += 1
                segments.append(0)
                if len(segments) - 1 > MAX_BRACKET_DEPTH:
                    return token.start[0], token.start[1] + 1, "too many nested parentheses"
            elif kind == tokenize.OP and text in (")", "]", "}"):
                if len(segments) > 1:
                    open_tokens -= segments.pop()
            elif kind == tokenize.OP and text in (",", ";"):
                open_tokens -= segments[-1]
                segments[-1] = 0
            else:
                segments[-1] += 1
                open_tokens += 1
            depth = open_tokens + 4 * (len(segments) - 1) + 2 * chain_total
            if depth > MAX_NESTING:
                return token.start[0], token.start[1] + 1, TOO_DEEP
    except (tokenize.TokenError, SyntaxError, UnicodeDecodeError, LookupError):
        return None
    return None


def parse_file(source: SourceFile, display_path: str) -> ParsedModule | FileError:
    """Read and check one file; every failure is returned as a FileError naming the cause.

    CPython's own parser checks every file (syntax, encoding, nesting). libcst parses a file
    here only when it nests deeply or CPython rejects it (newer syntax); any other file is
    parsed when its tree is first needed, which for most files of a whole engine is never.
    """
    try:
        data = source.path.read_bytes()
    except OSError as error:
        return FileError(display_path, 1, 1, f"cannot read file: {error.strerror or error}")
    if len(data) > MAX_FILE_BYTES:
        return FileError(
            display_path, 1, 1, f"file is {len(data)} bytes, over the {MAX_FILE_BYTES} byte limit"
        )
    if b"\x00" in data:
        return FileError(display_path, 1, 1, "file contains NUL bytes (binary file?)")
    too_deep, cpython_tree, depth = _nesting(data)
    if too_deep is not None:
        return FileError(display_path, *too_deep)
    if cpython_tree is not None and depth <= LAZY_POSITIONS_DEPTH:
        # CPython accepts the file and it is shallow: libcst parses it when it is first needed
        return ParsedModule(source, display_path, data=data, outline=outline(cpython_tree))
    tree = _libcst_parse(data, display_path)
    if isinstance(tree, FileError):
        return tree
    try:  # deep (or only estimated) nesting: positions now, so a failure is this file's error
        positions = _resolve_positions(tree)
    except Exception as error:  # libcst may mask a RecursionError with a KeyError on unwind
        if not _from_recursion(error):
            raise
        return FileError(display_path, 1, 1, "file is nested too deeply to parse")
    shape = outline(cpython_tree) if cpython_tree is not None else None
    return ParsedModule(source, display_path, tree, positions, outline=shape)


def _libcst_parse(data: bytes, display_path: str) -> cst.Module | FileError:
    try:
        return cst.parse_module(data)
    except cst.ParserSyntaxError as error:
        line, column, message = _cpython_syntax_error(data) or (
            error.raw_line,
            error.raw_column + 1,
            error.message,
        )
        return FileError(display_path, line, column, f"syntax error: {message}")
    except (UnicodeDecodeError, LookupError, SyntaxError) as error:
        return FileError(display_path, 1, 1, f"cannot decode file: {error}")
    except RecursionError:
        return FileError(display_path, 1, 1, "file is nested too deeply to parse")


def _cpython_syntax_error(data: bytes) -> tuple[int, int, str] | None:
    """CPython's position and wording for a syntax error (libcst's often point at the line
    start); None when CPython accepts the file (newer syntax than this Python)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. invalid escape sequences
            compile(data, "<audited>", "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as error:
        return error.lineno or 1, max(error.offset or 1, 1), error.msg
    except Exception:  # noqa: BLE001 - only a better message is at stake
        return None
    return None


def _from_recursion(error: BaseException) -> bool:
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if isinstance(current, RecursionError):
            return True
        seen.add(id(current))
        current = current.__context__ or current.__cause__
    return False
