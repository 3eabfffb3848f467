"""Stage 2: every file either parses with positions or becomes a FileError; nothing raises."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import libcst as cst
import pytest

from auditor.frontend.discover import SourceFile
from auditor.frontend.parse import (
    MAX_BRACKET_DEPTH,
    MAX_FILE_BYTES,
    FileError,
    ParsedModule,
    parse_file,
)


def parse_bytes(tmp_path: Path, data: bytes, name: str = "m.py") -> ParsedModule | FileError:
    path = tmp_path / name
    path.write_bytes(data)
    return parse_file(SourceFile(path, tmp_path, path.stem), name)


def test_a_valid_file_parses_with_positions(tmp_path):
    parsed = parse_bytes(tmp_path, b"import torch\n\nclass Pool:\n    size = 1 + 2\n")
    assert isinstance(parsed, ParsedModule)
    assert parsed.display_path == "m.py"
    pool = parsed.tree.body[1]
    assert isinstance(pool, cst.ClassDef)
    location = parsed.location(pool.name)
    assert (location.path, location.line, location.column) == ("m.py", 3, 7)
    assert (location.end_line, location.end_column) == (3, 11)
    assignment = pool.body.body[0].body[0]
    assert parsed.code(assignment.value) == "1 + 2"
    assert parsed.location(assignment.value).column == 12


@pytest.mark.parametrize(
    "source, line, column, words",
    [
        (b"ok = 1\ny = 2\ndef f(:\n    pass\n", 3, 7, "invalid syntax"),
        (b"x = 1\n  y = 2\n", 2, 2, "unexpected indent"),
        (b"x = (1,\n", 1, 5, "never closed"),
        (b"x = 'abc\n", 1, 5, "unterminated string"),
        (b"if x:\npass\n", 2, 1, "indented block"),
    ],
)
def test_syntax_error_is_a_file_error_with_line_and_column(tmp_path, source, line, column, words):
    error = parse_bytes(tmp_path, source)
    assert isinstance(error, FileError)
    assert error.path == "m.py"
    assert error.message.startswith("syntax error")
    assert words in error.message
    assert (error.line, error.column) == (line, column)


def test_syntax_error_column_is_one_based(tmp_path):
    error = parse_bytes(tmp_path, b"ok = 1\nx = = 2\n")
    assert isinstance(error, FileError)
    assert (error.line, error.column) == (2, 5)


def test_nul_bytes_are_a_file_error(tmp_path):
    error = parse_bytes(tmp_path, b"x = 1\x00\n")
    assert isinstance(error, FileError)
    assert "NUL" in error.message
    assert (error.line, error.column) == (1, 1)


def test_invalid_utf8_is_a_file_error(tmp_path):
    error = parse_bytes(tmp_path, b"name = '\xff\xfe caf\xe9'\n")
    assert isinstance(error, FileError)
    assert "decode" in error.message


def test_unknown_coding_declaration_is_a_file_error(tmp_path):
    error = parse_bytes(tmp_path, b"# -*- coding: no-such-codec -*-\nx = 1\n")
    assert isinstance(error, FileError)


def test_declared_latin1_and_utf8_bom_are_read(tmp_path):
    latin = parse_bytes(tmp_path, b"# -*- coding: latin-1 -*-\nname = 'caf\xe9'\n", "a.py")
    assert isinstance(latin, ParsedModule)
    assert "café" in latin.tree.code
    bom = parse_bytes(tmp_path, b"\xef\xbb\xbfx = 1\n", "b.py")
    assert isinstance(bom, ParsedModule)


PARSE_IN_CHILD = """
import json, sys
from pathlib import Path
from auditor.frontend.discover import SourceFile
from auditor.frontend.parse import FileError, parse_file

path = Path(sys.argv[1])
outcome = parse_file(SourceFile(path, path.parent, "m"), "m.py")
if isinstance(outcome, FileError):
    print(json.dumps([outcome.line, outcome.column, outcome.message]))
else:
    print(json.dumps(None))
"""

DEEP = {
    "parens": "x = " + "(" * 5000 + "1" + ")" * 5000 + "\n",
    "lists": "x = " + "[" * 5000 + "]" * 5000 + "\n",
    "calls": "x = " + "f(" * 5000 + ")" * 5000 + "\n",
    "unclosed": "x = " + "(" * 5000 + "\n",
    "long-sum": "x = 1" + " + 1" * 20000 + "\n",
    "unary": "x = " + "-" * 20000 + "1\n",
    "not": "x = " + "not " * 20000 + "y\n",
    "lambda": "x = " + "lambda: " * 20000 + "1\n",
    "attributes": "x = a" + ".b" * 20000 + "\n",
    "call-chain": "x = f" + "()" * 20000 + "\n",
    "and-chain": "x = a" + " and a" * 20000 + "\n",
    "if-expressions": "x = " + "1 if y else " * 20000 + "1\n",
    "elif-chain": "if x:\n    pass\n" + "elif x:\n    pass\n" * 20000,
    "elif-900": "if x:\n    pass\n" + "elif x:\n    pass\n" * 900,
    "nested-ifs": "".join("    " * i + "if x:\n" for i in range(200)) + "    " * 200 + "pass\n",
    # CPython rejects these for another reason first, so nesting is estimated from tokens
    "invalid-then-deep": "x = )\ny = " + "not " * 20000 + "z\n",
    "invalid-then-parens": "x = )\ny = " + "(" * 5000 + "1" + ")" * 5000 + "\n",
    "newer-syntax-then-deep": "type X = int\ny = " + "lambda: " * 20000 + "1\n",
}


@pytest.mark.parametrize("name", sorted(DEEP))
def test_deep_nesting_is_a_file_error_not_a_crash(tmp_path, name):
    # libcst's native parser overflows its stack (killing the process) on deep nesting, so the
    # parse runs in a child process: a crash fails this test instead of the whole run
    path = tmp_path / "m.py"
    path.write_text(DEEP[name])
    started = time.perf_counter()
    child = subprocess.run(
        [sys.executable, "-c", PARSE_IN_CHILD, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert time.perf_counter() - started < 60
    assert child.returncode == 0, f"parser crashed ({child.returncode}): {child.stderr[-500:]}"
    outcome = json.loads(child.stdout)
    assert outcome is not None, "parsed although nested too deeply"
    line, column, message = outcome
    assert line >= 1 and column >= 1
    assert "nested" in message or "indentation" in message


def test_nesting_limit_reports_where_it_is_exceeded(tmp_path):
    error = parse_bytes(tmp_path, b"ok = 1\nx = " + b"(" * 300 + b"1" + b")" * 300 + b"\n")
    assert isinstance(error, FileError)
    assert (error.line, error.column) == (2, 5 + MAX_BRACKET_DEPTH)
    assert "too many nested parentheses" in error.message


def test_moderate_nesting_still_parses(tmp_path):
    source = "x = " + "(" * 150 + "1" + ")" * 150 + "\n"
    source += "y = [" + ", ".join(str(i) for i in range(5000)) + "]\n"
    source += "z = 1" + " + 1" * 200 + "\n"
    assert isinstance(parse_bytes(tmp_path, source.encode()), ParsedModule)


def test_oversized_file_is_a_file_error(tmp_path):
    data = b"# " + b"x" * MAX_FILE_BYTES + b"\n"
    error = parse_bytes(tmp_path, data)
    assert isinstance(error, FileError)
    assert "byte limit" in error.message


def test_unreadable_path_is_a_file_error(tmp_path):
    folder = tmp_path / "pkg.py"
    folder.mkdir()
    error = parse_file(SourceFile(folder, tmp_path, "pkg"), "pkg.py")
    assert isinstance(error, FileError)
    assert error.message.startswith("cannot read file")


def test_empty_file_parses(tmp_path):
    parsed = parse_bytes(tmp_path, b"")
    assert isinstance(parsed, ParsedModule)
    assert len(parsed.tree.body) == 0
