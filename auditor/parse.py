"""Stage 2: parse each file with libcst, keeping positions; a bad file becomes a FileError."""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from auditor.discover import SourceFile
from auditor.location import Location

MAX_FILE_BYTES = 8 * 1024 * 1024


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
    try:
        tree = cst.parse_module(data)
    except cst.ParserSyntaxError as error:
        return FileError(
            display_path, error.raw_line, error.raw_column + 1, f"syntax error: {error.message}"
        )
    except (UnicodeDecodeError, LookupError, SyntaxError) as error:
        return FileError(display_path, 1, 1, f"cannot decode file: {error}")
    except RecursionError:
        return FileError(display_path, 1, 1, "file is nested too deeply to parse")
    try:
        wrapper = MetadataWrapper(tree, unsafe_skip_copy=True)
        positions = dict(wrapper.resolve(PositionProvider))
    except RecursionError:
        return FileError(display_path, 1, 1, "file is nested too deeply to parse")
    return ParsedModule(source, display_path, tree, positions)
