"""Hostile input the parser bounds: huge flat statements never reach libcst, a config file that
is a FIFO or a device never hangs the run, a codec raising UnicodeError is one file's error."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import libcst
import pytest

import auditor.frontend.parse
from auditor.cli import main
from auditor.limits import MAX_STATEMENT_NODES

REPO = Path(__file__).resolve().parent.parent
INCIDENT = REPO / "fixtures" / "incident_buggy"
MEM_CACHE = Path("tree") / "sglang" / "srt" / "mem_cache"
# terms enough for MAX_STATEMENT_NODES (a `+` chain of n names is about 2n nodes), kept flat
# in parentheses so the nesting bound does not catch it first
TERMS = MAX_STATEMENT_NODES
FLAT_CALL = "f(" + ", ".join(f"a{i} + 1" for i in range(TERMS // 2)) + ")"


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    shutil.copytree(INCIDENT, tmp_path / "tree")
    return Path("tree")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["--isolated", "--no-cache", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def never_libcst(monkeypatch, name: str) -> None:
    """Fail the test if libcst is asked to parse the file holding `marker`."""
    real = libcst.parse_module

    def parse_module(source, *args, **kwargs):
        assert (
            name.encode() not in bytes(source, "utf-8")
            if isinstance(source, str)
            else (name.encode() not in source)
        ), "libcst saw the oversized file"
        return real(source, *args, **kwargs)

    monkeypatch.setattr(libcst, "parse_module", parse_module)


def test_a_pool_file_with_a_huge_flat_statement_is_one_error_and_never_parsed(
    tree, capsys, monkeypatch
):
    hostile = MEM_CACHE / "huge_pool.py"
    hostile.write_text(
        "# HUGE-MARKER\n"
        "class HugePool:\n"
        "    def __init__(self, size, layer_num):\n"
        f"        self.x = {FLAT_CALL}\n"
    )
    never_libcst(monkeypatch, "HUGE-MARKER")
    code, out, err = run(capsys, "tree")
    assert code == 1 and "Traceback" not in out + err
    errors = [line for line in out.splitlines() if ": E902 " in line]
    assert errors == [
        f"{hostile}:4:9: E902 statement too large to parse: over {MAX_STATEMENT_NODES} syntax nodes"
    ]
    assert out.count(": LA001 ") == 1  # the incident's finding is still there


def test_a_huge_statement_in_a_file_the_audit_never_needs_is_not_an_error(tree, capsys):
    (tree / "generated_table.py").write_text(f"TABLE = {FLAT_CALL}\n")
    code, out, _ = run(capsys, "tree")
    assert code == 1 and ": E902 " not in out and out.count(": LA001 ") == 1


def test_real_statements_stay_far_below_the_bound():
    """The largest simple statement of the fixtures and of the auditor itself."""
    import ast

    largest = 0
    for path in [*REPO.joinpath("fixtures").rglob("*.py"), *REPO.joinpath("auditor").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_bytes())):
            if isinstance(node, ast.stmt) and not hasattr(node, "body"):
                largest = max(largest, sum(1 for _ in ast.walk(node)))
    assert largest < MAX_STATEMENT_NODES // 10


def test_statement_size_is_counted_per_statement():
    many = "\n".join(f"x{i} = a + b + c" for i in range(MAX_STATEMENT_NODES // 4))
    assert "too_large" not in auditor.frontend.parse.file_facts(many.encode())
    facts = auditor.frontend.parse.file_facts(f"y = 1\nz = {FLAT_CALL}\n".encode())
    assert facts["too_large"][:2] == [2, 1]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_config_naming_a_fifo_exits_2_without_hanging(tmp_path):
    fifo = tmp_path / "pyproject.toml"
    os.mkfifo(fifo)
    done = subprocess.run(
        [sys.executable, "-m", "auditor", "--config", str(fifo), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,  # a safety net only: without the check the child would block forever
    )
    assert done.returncode == 2
    assert done.stderr == f"layout-audit: error: {fifo}: cannot read: not a regular file\n"


def test_config_naming_a_device_exits_2(tmp_path, capsys):
    assert main(["--config", "/dev/zero", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (
        "layout-audit: error: /dev/zero: cannot read: not a regular file\n"
    )


def test_config_naming_a_folder_exits_2(tmp_path, capsys):
    assert main(["--config", str(tmp_path), str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert (
        err.startswith(f"layout-audit: error: {tmp_path}: cannot read: ") and err.count("\n") == 1
    )


@pytest.mark.parametrize("codec", ["punycode", "undefined", "idna"])
def test_a_codec_raising_unicode_error_is_a_decode_error(tmp_path, codec):
    path = tmp_path / "cookie.py"
    path.write_bytes(f"# -*- coding: {codec} -*-\nx = 1\n\xff\n".encode("latin-1"))
    from auditor.frontend.discover import SourceFile

    outcome = auditor.frontend.parse.parse_file(SourceFile(path, tmp_path, "cookie"), "cookie.py")
    assert isinstance(outcome, auditor.frontend.parse.FileError), outcome
    assert outcome.message.startswith("cannot decode file:"), outcome.message


# ---- files the pre-filter skips are checked by CPython before libcst, when first needed ----

LAZY_POOL = (
    "import torch\n"
    "from sglang.srt.mem_cache.widths import WIDTH\n"
    "\n"
    "\n"
    "class LazyPool:\n"
    "    def __init__(self, size, layer_num):\n"
    "        self.kv_buffer = [\n"
    "            torch.zeros((size, WIDTH), dtype=torch.uint8) for _ in range(layer_num)\n"
    "        ]\n"
)


def lazy_tree(tree: Path, widths: bytes) -> Path:
    """A pool whose buffer width comes from `widths.py`, which holds nothing the pre-filter
    keeps: it is read only because the interpreter needs WIDTH."""
    (MEM_CACHE / "lazy_pool.py").write_text(LAZY_POOL)
    (MEM_CACHE / "widths.py").write_bytes(widths)
    return MEM_CACHE / "widths.py"


def test_a_module_needed_only_by_an_import_is_read(tree, capsys):
    lazy_tree(tree, b"WIDTH = 8\n")
    code, out, err = run(capsys, "--show-pools", "tree")
    assert code == 1 and ": E902 " not in out, out + err
    lazy = out.split("\nLazyPool: ", 1)[1]
    assert "device kv_buffer: WIDTH = 8 x uint8 (1 B) = 8 B/token/layer" in lazy, out


def test_a_syntax_error_in_a_module_needed_only_by_an_import_is_reported(tree, capsys):
    widths = lazy_tree(tree, b"WIDTH = (8\n")
    code, out, err = run(capsys, "--show-unresolved", "tree")
    assert code == 1 and "Traceback" not in out + err
    errors = [line for line in out.splitlines() if ": E902 " in line]
    assert len(errors) == 1 and errors[0].startswith(f"{widths}:1:9: E902 syntax error"), errors
    assert out.count(": LA001 ") == 1  # the incident's; LazyPool's width is unresolved
    unresolved = [line for line in out.splitlines() if "LazyPool.kv_buffer" in line]
    assert len(unresolved) == 1 and "widths.WIDTH" in unresolved[0], out


def test_deep_nesting_in_a_module_needed_only_by_an_import_never_reaches_libcst(tree):
    """libcst's parser kills the process on deep nesting: the lazily read module must go
    through CPython's check first, as files kept by the pre-filter do. In a child process."""
    deep = ("x = " + "(" * 5000 + "1" + ")" * 5000 + "\nWIDTH = 8\n").encode()
    widths = lazy_tree(tree, deep)
    child = subprocess.run(
        [sys.executable, "-m", "auditor", "--isolated", "--no-cache", "tree"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert child.returncode == 1 and "Traceback" not in child.stderr, child.stderr
    errors = [line for line in child.stdout.splitlines() if ": E902 " in line]
    assert errors == [f"{widths}:1:205: E902 too many nested parentheses"], child.stdout
    assert child.stdout.count(": LA001 ") == 1


def test_a_failure_of_the_late_check_is_that_module_s_error(tree, capsys, monkeypatch):
    """Whatever escapes CPython's check of a lazily needed module is one E902 for it."""
    widths = lazy_tree(tree, b"WIDTH = 8\n")
    real = auditor.frontend.parse.file_facts

    def file_facts(data):
        if data == b"WIDTH = 8\n":
            raise MemoryError()
        return real(data)

    monkeypatch.setattr(auditor.frontend.parse, "file_facts", file_facts)
    code, out, err = run(capsys, "tree")
    assert code == 1 and "Traceback" not in out + err
    errors = [line for line in out.splitlines() if ": E902 " in line]
    assert errors == [f"{widths}:1:1: E902 cannot parse file: MemoryError:"], errors
    assert out.count(": LA001 ") == 1
