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
from typing import TYPE_CHECKING, Any, TypeVar

from auditor.frontend import walk
from auditor.frontend.behaviour import module_helpers, outline_facts, per_layer_bytes
from auditor.frontend.discover import SourceFile
from auditor.limits import MAX_STATEMENT_NODES
from auditor.location import Location

if TYPE_CHECKING:  # libcst is imported when a tree is first needed: a run without pools never
    import libcst as cst  # loads it (issue #17: one file without a pool class)
    from libcst.metadata import CodeRange

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
        too_large: FileError | None = None,
        checked: bool = True,
    ) -> None:
        self.source = source
        # False: the pre-filter found nothing in the file that can matter, so CPython's check
        # has not run; it runs (before libcst ever sees the file) if the tree is needed
        self.checked = checked
        self.outline = outline  # None: not known (CPython did not parse or did not check it)
        self.display_path = display_path
        self._tree = tree
        self._positions = positions
        self._data = data if tree is None else None
        self._error: FileError | None = None
        self._too_large = too_large  # a statement libcst must never see: the file's error
        self._elsewhere = False  # parsed by a forked worker (evaluation/forked.py)
        # what suppressions.scan looks for; files without it cannot hold a suppression
        self.may_suppress = data is None or may_suppress(data)
        if tree is None and data is None:
            raise ValueError("a ParsedModule needs its tree or its bytes")

    def __repr__(self) -> str:
        return f"<ParsedModule {self.display_path}>"

    @property
    def tree(self) -> cst.Module:
        """The libcst tree; raises LateParseError if libcst rejects the file."""
        if self._tree is None:
            if not self.checked:
                self._check_now()
            if self._tree is not None:
                return self._tree
            if self._error is None and self._too_large is not None:
                self._error, self._data = self._too_large, None
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

    def _check_now(self) -> None:
        """CPython's check of a file the pre-filter skipped, now that its tree is needed: the
        same facts (syntax, encoding, nesting, statement size) as for a file checked up front,
        so libcst never sees a file that could crash it."""
        self.checked = True
        try:
            outcome = module_from_facts(
                self.source, self.display_path, self._data, file_facts(self._data)
            )
        except Exception as error:  # noqa: BLE001 - this file's error, not the audit's
            message = f"cannot parse file: {type(error).__name__}: {error}"
            outcome = FileError(self.display_path, 1, 1, message)
        if isinstance(outcome, FileError):
            self._error, self._data = outcome, None
            return
        self.outline, self._too_large = outcome.outline, outcome._too_large
        if outcome._tree is not None:  # deep or newer syntax: parsed (with positions) already
            self._tree, self._positions, self._data = outcome._tree, outcome._positions, None

    @property
    def data(self) -> bytes | None:
        """The file's bytes until its tree is parsed (None afterwards)."""
        return self._data

    @property
    def is_parsed(self) -> bool:
        """Whether libcst has parsed the file (successfully or not), here or in a worker."""
        return self._tree is not None or self._error is not None or self._elsewhere

    @property
    def rejection(self) -> FileError | None:
        """Why libcst (or a bound before it) rejected the file, if it did."""
        return self._error

    def parsed_elsewhere(self, rejection: FileError | None) -> None:
        """A worker parsed this module for the result (or rejected it): the result depends on
        it as if parsed here. Its tree is parsed here only if this process needs it."""
        if rejection is not None and self._tree is None:
            self._error, self._data, self.checked = rejection, None, True
        self._elsewhere = True

    @property
    def rejected(self) -> bool:
        """Whether libcst (or a bound before it) rejected the file when its tree was needed."""
        return self._error is not None

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


def may_suppress(data: bytes) -> bool:
    """Whether a file may hold a suppression comment (what suppressions.scan looks for)."""
    return b"layout-audit" in data.lower()


def _resolve_positions(tree: cst.Module) -> dict[cst.CSTNode, CodeRange]:
    from libcst.metadata import MetadataWrapper, PositionProvider

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
    problem, tree, depth, _ = _check(data)
    return problem, tree, depth


def _check(
    data: bytes,
) -> tuple[tuple[int, int, str] | None, ast.Module | None, int, tuple[int, int, str] | None]:
    """CPython's view of `data`: a nesting problem, its syntax tree (None when CPython gave
    none), its depth, and a statement too large for libcst (see limits.MAX_STATEMENT_NODES)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. invalid escape sequences
            tree = compile(data, "<audited>", "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as error:
        if "too many nested parentheses" in str(error.msg):
            where = error.lineno or 1, max(error.offset or 1, 1)
            return (*where, "too many nested parentheses"), None, 0, None
        return token_nesting_problem(data), None, 0, None
    except (RecursionError, MemoryError):  # CPython's "too complex" / deep AST construction
        return (1, 1, TOO_DEEP), None, 0, None
    except ValueError:
        return None, None, 0, None
    problem, depth, big = _walk(tree)
    return problem, tree, depth, big


def _tree_depth_problem(tree: ast.AST) -> tuple[int, int, str] | None:
    return _tree_depth(tree)[0]


@dataclass(frozen=True)
class ClassOutline:
    """What the file says of one class without libcst: enough to tell whether it may be a pool."""

    name: str
    bases: frozenset[str]  # every name in its base expressions (`a.B[T]`: a, B, T)
    init_params: frozenset[str]  # the parameters of the `__init__` methods in its body
    behaves: bool = False  # allocates per layer and per token (behaviour.outline_facts)
    mirrors: frozenset[str] = frozenset()  # annotations of its parameters, if it allocates


@dataclass(frozen=True)
class Outline:
    """The classes of a file (any depth outside functions) and its `import x as y` aliases."""

    classes: tuple[ClassOutline, ...]
    aliases: tuple[tuple[str, str], ...]  # (name imported, name bound)


_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")


def outline(tree: ast.Module, data: bytes | None = None) -> Outline:
    """Classes as the index (index.py) will see them: in the module body, in class bodies and in
    `if`/`try`/`with`/loop blocks, not inside functions; `__init__` found the same way."""
    classes: list[tuple[str, frozenset[str], set[str], tuple[bool, frozenset[str]]]] = []
    per_layer = data is None or per_layer_bytes(data)
    helpers = module_helpers(tree)  # (`layers_per_rank(config, mapping)`, read where called)
    aliases: list[tuple[str, str]] = []
    stack: list[tuple[list, set[str] | None]] = [(tree.body, None)]
    while stack:
        statements, init_params = stack.pop()
        for node in statements:
            if isinstance(node, ast.ClassDef):
                bases = frozenset(
                    name
                    for expression in (*node.bases, *(k.value for k in node.keywords))
                    for part in walk.nodes(expression)
                    for name in (getattr(part, "id", None), getattr(part, "attr", None))
                    if name
                )
                params: set[str] = set()
                classes.append((node.name, bases, params, outline_facts(node, per_layer, helpers)))
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
        tuple(
            ClassOutline(name, bases, frozenset(params), *behaviour)
            for name, bases, params, behaviour in classes
        ),
        tuple(aliases),
    )


_SKIPPED_CHILDREN = (ast.expr_context, ast.operator, ast.boolop, ast.cmpop)
# fields that never hold a counted child (names, flags, contexts, comparison operators)
_LEAF_FIELDS = frozenset(
    "ctx id attr arg kind type_comment is_async level conversion simple module asname tag ops".split()
)
_SHAPES: dict[type, tuple[tuple[str, ...], bool, bool, bool]] = {}


def _shape(kind: type) -> tuple[tuple[str, ...], bool, bool, bool]:
    """(fields that may hold children, has a line, is a BoolOp, is a statement) of a node
    type."""
    shape = _SHAPES.get(kind)
    if shape is None:
        fields = tuple(
            name
            for name in kind._fields
            if name not in _LEAF_FIELDS and not (kind is ast.Constant and name == "value")
        )
        has_line = "lineno" in kind._attributes or "lineno" in kind._fields
        shape = (fields, has_line, kind is ast.BoolOp, issubclass(kind, ast.stmt))
        _SHAPES[kind] = shape
    return shape


def _tree_depth(tree: ast.AST) -> tuple[tuple[int, int, str] | None, int]:
    """The first node nested deeper than MAX_TREE_DEPTH and the deepest level seen."""
    problem, deepest, _ = _walk(tree)
    return problem, deepest


def _walk(
    tree: ast.AST,
) -> tuple[tuple[int, int, str] | None, int, tuple[int, int, str] | None]:
    """One walk over CPython's tree: the first node nested deeper than MAX_TREE_DEPTH, counting
    `a and b and c` as libcst does (one level per operator), without recursing; the deepest
    level seen; and where a run of more than MAX_STATEMENT_NODES expression nodes was met with
    no statement among them (a huge statement; the run may also hold the headers of the
    compound statements around it, so it errs on the large side).

    The walk of `ast.iter_child_nodes`, in the same order, without its generators: this runs
    over every node of every audited file.
    """
    node_type, skipped = ast.AST, _SKIPPED_CHILDREN
    stack: list[tuple[ast.AST, int, ast.AST]] = [(tree, 0, tree)]
    pop, push = stack.pop, stack.append
    deepest = run = 0
    statement: ast.AST = tree
    big: tuple[int, int, str] | None = None
    while stack:
        node, depth, positioned = pop()
        fields, has_line, is_boolop, is_statement = _SHAPES.get(type(node)) or _shape(type(node))
        if has_line:
            positioned = node
        if depth > deepest:
            deepest = depth
            if depth > MAX_TREE_DEPTH:
                line = getattr(positioned, "lineno", 1)
                return (line, getattr(positioned, "col_offset", 0) + 1, TOO_DEEP), depth, big
        if is_statement:
            statement, run = node, 0
        else:
            run += 1
            if run > MAX_STATEMENT_NODES and big is None:
                big = (
                    getattr(statement, "lineno", 1),
                    getattr(statement, "col_offset", 0) + 1,
                    f"statement too large to parse: over {MAX_STATEMENT_NODES} syntax nodes",
                )
        below = depth + 1 + (len(node.values) - 2 if is_boolop else 0)
        for name in fields:
            value = getattr(node, name, None)
            if type(value) is list:
                for item in value:
                    if isinstance(item, node_type) and not isinstance(item, skipped):
                        push((item, below, positioned))
            elif isinstance(value, node_type) and not isinstance(value, skipped):
                push((value, below, positioned))
    return None, deepest, big


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
    except (tokenize.TokenError, SyntaxError, UnicodeError, LookupError):
        return None
    return None


def parse_file(source: SourceFile, display_path: str) -> ParsedModule | FileError:
    """Read and check one file; every failure is returned as a FileError naming the cause.

    CPython's own parser checks every file (syntax, encoding, nesting). libcst parses a file
    here only when it nests deeply or CPython rejects it (newer syntax); any other file is
    parsed when its tree is first needed, which for most files of a whole engine is never.
    """
    data = read_source(source, display_path)
    if isinstance(data, FileError):
        return data
    return module_from_facts(source, display_path, data, file_facts(data))


def read_source(source: SourceFile, display_path: str) -> bytes | FileError:
    """A file's bytes, or why they are not read: its size is checked before reading, so a huge
    file is never loaded, and again after (it may have grown in between)."""
    try:
        size = source.path.stat().st_size
        if size <= MAX_FILE_BYTES:
            data = source.path.read_bytes()
            size = len(data)
    except OSError as error:
        return FileError(display_path, 1, 1, f"cannot read file: {error.strerror or error}")
    if size > MAX_FILE_BYTES:
        return FileError(
            display_path, 1, 1, f"file is {size} bytes, over the {MAX_FILE_BYTES} byte limit"
        )
    return data


def file_facts(data: bytes) -> dict[str, Any]:
    """What CPython's check says of a file, as JSON data that depends on its bytes only: an
    error `[line, column, message]`, or its outline (and a statement too large for libcst,
    reported if the audit ever needs the tree), or `eager` (deep, or rejected by CPython:
    libcst parses it now). Cached by content hash; computed in worker processes."""
    if b"\x00" in data:
        return {"error": [1, 1, "file contains NUL bytes (binary file?)"]}
    too_deep, cpython_tree, depth, too_large = _check(data)
    if too_deep is not None:
        return {"error": list(too_deep)}
    if cpython_tree is not None and depth <= LAZY_POSITIONS_DEPTH:
        facts: dict[str, Any] = {"outline": outline_as_json(outline(cpython_tree, data))}
        if too_large is not None:
            facts["too_large"] = list(too_large)
        return facts
    return {"eager": True}


def _position(value: Any) -> tuple[int, int, str]:
    if (
        not isinstance(value, list)
        or len(value) != 3
        or not all(type(v) is int for v in value[:2])
        or not isinstance(value[2], str)
    ):
        raise ValueError("not a [line, column, message] triple")
    return value[0], value[1], value[2]


def check_facts(facts: Any) -> dict[str, Any]:
    """`facts` if it has file_facts' shape (a cached entry is checked before use), else
    ValueError."""
    if not isinstance(facts, dict):
        raise ValueError("facts")
    if set(facts) == {"error"}:
        _position(facts["error"])
    elif set(facts) == {"eager"}:
        if facts["eager"] is not True:
            raise ValueError("eager")
    elif set(facts) in ({"outline"}, {"outline", "too_large"}):
        outline_from_json(facts["outline"])
        if "too_large" in facts:
            _position(facts["too_large"])
    else:
        raise ValueError("facts")
    return facts


def module_from_facts(
    source: SourceFile, display_path: str, data: bytes, facts: dict[str, Any]
) -> ParsedModule | FileError:
    """The ParsedModule (or FileError) for a file with these bytes and these file_facts."""
    if "error" in facts:
        return FileError(display_path, *_position(facts["error"]))
    if "outline" in facts:
        # CPython accepts the file and it is shallow: libcst parses it when it is first needed
        too_large = facts.get("too_large")
        return ParsedModule(
            source,
            display_path,
            data=data,
            outline=outline_from_json(facts["outline"]),
            too_large=FileError(display_path, *_position(too_large)) if too_large else None,
        )
    _, cpython_tree, _, too_large = _check(data)
    if too_large is not None:
        return FileError(display_path, *too_large)
    tree = _libcst_parse(data, display_path)
    if isinstance(tree, FileError):
        return tree
    try:  # deep (or only estimated) nesting: positions now, so a failure is this file's error
        positions = _resolve_positions(tree)
    except Exception as error:  # libcst may mask a RecursionError with a KeyError on unwind
        if not _from_recursion(error):
            raise
        return FileError(display_path, 1, 1, "file is nested too deeply to parse")
    shape = outline(cpython_tree, data) if cpython_tree is not None else None
    return ParsedModule(source, display_path, tree, positions, outline=shape)


def outline_as_json(shape: Outline) -> dict[str, Any]:
    return {
        "classes": [
            [cls.name, sorted(cls.bases), sorted(cls.init_params), cls.behaves, sorted(cls.mirrors)]
            for cls in shape.classes
        ],
        "aliases": [list(pair) for pair in shape.aliases],
    }


def outline_from_json(data: Any) -> Outline:
    """outline_as_json's inverse; ValueError for anything of another shape."""
    if not isinstance(data, dict) or set(data) != {"classes", "aliases"}:
        raise ValueError("outline")
    classes = []
    for item in data["classes"]:
        if not isinstance(item, list) or len(item) != 5:
            raise ValueError("outline class")
        name, bases, params, behaves, mirrors = item
        if not isinstance(name, str) or not _strings(bases) or not _strings(params):
            raise ValueError("outline class")
        if not isinstance(behaves, bool) or not _strings(mirrors):
            raise ValueError("outline class")
        classes.append(
            ClassOutline(name, frozenset(bases), frozenset(params), behaves, frozenset(mirrors))
        )
    aliases = []
    for item in data["aliases"]:
        if not isinstance(item, list) or len(item) != 2 or not _strings(item):
            raise ValueError("outline alias")
        aliases.append((item[0], item[1]))
    return Outline(tuple(classes), tuple(aliases))


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _libcst_parse(data: bytes, display_path: str) -> cst.Module | FileError:
    import libcst as cst

    try:
        return cst.parse_module(data)
    except cst.ParserSyntaxError as error:
        line, column, message = _cpython_syntax_error(data) or (
            error.raw_line,
            error.raw_column + 1,
            error.message,
        )
        return FileError(display_path, line, column, f"syntax error: {message}")
    except UnicodeDecodeError as error:
        return FileError(display_path, 1, 1, f"cannot decode file: {error}")
    except UnicodeError as error:  # a coding cookie naming a codec that raises UnicodeError
        return FileError(display_path, 1, 1, f"cannot decode file: UnicodeError: {error}")
    except (LookupError, SyntaxError) as error:
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
