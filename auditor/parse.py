"""Stage 2: parse each file with libcst, keeping positions; a bad file becomes a FileError."""

from __future__ import annotations

import ast
import io
import tokenize
import warnings
from dataclasses import dataclass

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


@dataclass(frozen=True)
class FileError:
    """A file the auditor could not read or parse; reported, and the audit goes on."""

    path: str
    line: int
    column: int
    message: str


@dataclass
class ParsedModule:
    """One parsed file: its syntax tree and the position of every node in it."""

    source: SourceFile
    display_path: str
    tree: cst.Module
    positions: dict[cst.CSTNode, CodeRange]

    def location(self, node: cst.CSTNode) -> Location:
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


def nesting_problem(data: bytes) -> tuple[int, int, str] | None:
    """(line, column, message) where `data` nests too deeply to parse safely, else None."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. invalid escape sequences
            tree = compile(data, "<audited>", "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as error:
        if "too many nested parentheses" in str(error.msg):
            return error.lineno or 1, max(error.offset or 1, 1), "too many nested parentheses"
        return token_nesting_problem(data)
    except (RecursionError, MemoryError):  # CPython's "too complex" / deep AST construction
        return 1, 1, TOO_DEEP
    except ValueError:
        return None
    return _tree_depth_problem(tree)


def _tree_depth_problem(tree: ast.AST) -> tuple[int, int, str] | None:
    """The first node nested deeper than MAX_TREE_DEPTH, counting `a and b and c` as libcst
    does (one level per operator), without recursing."""
    stack: list[tuple[ast.AST, int, ast.AST]] = [(tree, 0, tree)]
    while stack:
        node, depth, positioned = stack.pop()
        if hasattr(node, "lineno"):
            positioned = node
        if depth > MAX_TREE_DEPTH:
            line = getattr(positioned, "lineno", 1)
            return line, getattr(positioned, "col_offset", 0) + 1, TOO_DEEP
        below = depth + 1 + (len(node.values) - 2 if isinstance(node, ast.BoolOp) else 0)
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.expr_context, ast.operator, ast.boolop, ast.cmpop)):
                stack.append((child, below, positioned))
    return None


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
    """Parse one file; every failure is returned as a FileError naming the cause."""
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
    too_deep = nesting_problem(data)
    if too_deep is not None:
        return FileError(display_path, *too_deep)
    try:
        tree = cst.parse_module(data)
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
    try:
        wrapper = MetadataWrapper(tree, unsafe_skip_copy=True)
        positions = dict(wrapper.resolve(PositionProvider))
    except Exception as error:  # libcst may mask a RecursionError with a KeyError on unwind
        if not _from_recursion(error):
            raise
        return FileError(display_path, 1, 1, "file is nested too deeply to parse")
    return ParsedModule(source, display_path, tree, positions)


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
