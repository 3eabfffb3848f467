"""Hostile input, end to end: each bad file beside the incident fixture is one E902 line naming
the file and the cause, never a traceback, and the incident's LA001 is still reported (exit 1).

Parse-level details (positions, nesting estimates) are in test_parse.py, discovery's in
test_discover.py, the interpreter's bounds in test_limits.py; here every case goes through the
command line with a real tree beside it, so nothing else may be lost. Tests run as root, where
`chmod 000` does not stop reads: unreadable files are made by monkeypatching Path.read_bytes.
"""

from __future__ import annotations

import io
import json
import os
import pathlib
import shutil
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import READ_BY_THE_AUDIT

import auditor.frontend.project
from auditor.cli import main
from auditor.frontend.parse import MAX_FILE_BYTES
from auditor.limits import Limits
from auditor.pipeline import audit
from auditor.settings import load_settings

REPO = Path(__file__).resolve().parent.parent
INCIDENT = REPO / "fixtures" / "incident_buggy"
INCIDENT_LA001 = (
    "LA001 index_k_with_scale_buffer: host and device disagree, "
    "132 B/token/layer vs 256 B/token/layer"
)
HOSTILE = Path("tree") / "sglang" / "srt" / "mem_cache" / "hostile.py"


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the incident fixture at `tree/`, with the working directory above it."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(INCIDENT, tmp_path / "tree")
    return Path("tree")


def run(capsys: pytest.CaptureFixture, *argv: str) -> tuple[int, str, str]:
    code = main(["--isolated", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def e902_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if ": E902 " in line]


def assert_reported_and_nothing_lost(
    code: int, out: str, err: str, hostile: Path, *words: str, position: str = "1:1"
) -> str:
    """Exit 1; one E902 line for `hostile` at `position` with each of `words`; the incident's
    LA001 still there; no traceback. Returns the E902 line."""
    assert code == 1, (out, err)
    assert "Traceback" not in out + err
    errors = e902_lines(out)
    assert len(errors) == 1, errors
    line = errors[0]
    assert line.startswith(f"{hostile}:{position}: E902 "), line
    for word in words:
        assert word in line, (word, line)
    assert sum(INCIDENT_LA001 in row for row in out.splitlines()) == 1, out
    assert "Found 1 finding" in err and "1 files with errors" in err, err
    return line


# ---- files whose bytes are hostile ------------------------------------------------------

DEEP_PARENS = ("x = " + "(" * 5000 + "1" + ")" * 5000 + "\n").encode()
# appended to each hostile file below so the pre-filter keeps it (the audit reads it); without
# it, a file that can hold no pool is not read at all (test_a_file_the_audit_does_not_need...)
READ = READ_BY_THE_AUDIT.encode()

UNREAD_HOSTILE_BYTES: dict[str, tuple[bytes, tuple[str, ...], str]] = {
    # name: (content, words in the E902 line, line:column)
    "syntax-error": (b"ok = 1\ndef f(:\n    pass\n", ("syntax error", "invalid syntax"), "2:7"),
    "unterminated-string": (b"x = 1\ny = 'abc\n", ("syntax error", "unterminated"), "2:5"),
    "invalid-utf8": (b"name = '\xff\xfe caf\xe9'\n", ("cannot decode",), "1:1"),
    "unknown-coding-cookie": (
        b"# -*- coding: no-such-codec -*-\nx = 1\n",
        ("unknown encoding", "no-such-codec"),
        "1:1",
    ),
    # a real codec whose decoder raises UnicodeError (not UnicodeDecodeError): this used to
    # escape parse_file and end the whole audit with exit 2
    "undefined-coding-cookie": (
        b"# -*- coding: undefined -*-\nx = 1\n",
        ("UnicodeError", "undefined"),
        "1:1",
    ),
    "punycode-coding-cookie": (
        b"# -*- coding: punycode -*-\nx = 1\n",
        ("UnicodeError", "punycode"),
        "1:1",
    ),
    "bytes-codec-cookie": (b"# coding: hex\nx = 1\n", ("cannot decode", "hex"), "1:1"),
    "cookie-contradicts-content": (
        b"# coding: ascii\nname = 'caf\xc3\xa9'\n",
        ("cannot decode", "ascii"),
        "1:1",
    ),
    "nul-bytes": (b"x = 1\x00\ny = 2\n", ("NUL",), "1:1"),
    "elf-binary": (b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 16, ("NUL", "binary"), "1:1"),
    "binary-without-nul": (bytes(range(1, 256)) * 16, ("cannot decode",), "1:1"),
    "utf16-without-cookie": ("x = 1\n".encode("utf-16"), ("NUL",), "1:1"),
    "deep-parentheses": (DEEP_PARENS, ("too many nested parentheses",), "1:205"),
    "oversized": (
        b"# " + b"x" * MAX_FILE_BYTES + b"\n",
        (f"{MAX_FILE_BYTES + 3} bytes", "over the", "byte limit"),
        "1:1",
    ),
}
# what the audit reads: the same bytes with a comment the pre-filter keeps (the oversized file is
# refused from its size, before anything is read)
HOSTILE_BYTES = {
    name: (data if name == "oversized" else data + READ, words, position)
    for name, (data, words, position) in UNREAD_HOSTILE_BYTES.items()
}


@pytest.mark.parametrize("name", sorted(set(HOSTILE_BYTES) - {"deep-parentheses"}))
def test_a_hostile_file_is_one_e902_and_the_incident_is_still_found(tree, capsys, name):
    data, words, position = HOSTILE_BYTES[name]
    HOSTILE.write_bytes(data)
    code, out, err = run(capsys, "tree")
    assert_reported_and_nothing_lost(code, out, err, HOSTILE, *words, position=position)


def test_5000_nested_parentheses_in_a_child_process(tree):
    """libcst's parser kills the process on deep nesting, so a regression here must fail this
    test, not the test run: the audit runs in a child."""
    HOSTILE.write_bytes(DEEP_PARENS + READ)
    started = time.perf_counter()
    child = subprocess.run(
        [sys.executable, "-m", "auditor", "--isolated", "tree"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert time.perf_counter() - started < 60
    _, words, position = HOSTILE_BYTES["deep-parentheses"]
    assert_reported_and_nothing_lost(
        child.returncode, child.stdout, child.stderr, HOSTILE, *words, position=position
    )


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\xef\xbb\xbf",  # a UTF-8 BOM and nothing else
        b"\xef\xbb\xbfx = 1\r\ny = 2\r\n",  # BOM, CRLF
        b"x = 1\ry = 2\r",  # old Mac line ends
        b"\x0cx = 1\n\x0c\ny = 2\n",  # form feeds
        b"# -*- coding: latin-1 -*-\nname = 'caf\xe9'\n",  # a PEP 263 cookie that is right
        b"# vim: set fileencoding=cp1252 :\nname = '\x80'\n",
        b"x = 1  # no newline at the end",
        "name = 'ünïcødé \U0001f600'\n".encode(),
    ],
    ids=["empty", "bom-only", "bom-crlf", "cr", "form-feed", "latin1", "cp1252", "no-eol", "utf8"],
)
def test_odd_but_valid_files_are_read_not_reported(tree, capsys, data):
    HOSTILE.write_bytes(data + READ)
    code, out, err = run(capsys, "tree")
    assert code == 1
    assert e902_lines(out) == []
    assert INCIDENT_LA001 in out
    assert "6 files" in err


def test_a_huge_file_is_refused_without_being_read(tree):
    """A 256 MB (sparse) file: reported from its size alone; reading it whole first would
    take that much memory (a sparse file can claim terabytes)."""
    with HOSTILE.open("wb") as handle:
        handle.truncate(256 * 1024 * 1024)
    tracemalloc.start()
    try:
        result = audit([tree], load_settings(None))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < MAX_FILE_BYTES, f"peak {peak / 2**20:.0f} MB"
    assert [(e.path, e.message) for e in result.errors] == [
        (str(HOSTILE), f"file is {256 * 1024 * 1024} bytes, over the {MAX_FILE_BYTES} byte limit")
    ]
    assert [(f.host.bytes_per_token, f.device.bytes_per_token) for f in result.findings] == [
        (132, 256)
    ]


@pytest.mark.parametrize("output_format", ["text", "json", "github", "sarif"])
def test_file_names_that_are_not_text(tree, monkeypatch, output_format):
    """Names with undecodable bytes or a newline: shown escaped, one line each, in every
    format, even on a terminal that is strict UTF-8 (a lone surrogate used to crash the text
    and SARIF output with a traceback)."""
    folder = os.fsencode(HOSTILE.parent)
    try:
        names = [folder + b"/\xff\xfe.py", folder + b"/new\nline.py"]
        for name in names:
            with open(name, "wb") as handle:
                handle.write(b"def f(:\n" + READ)
    except OSError:
        pytest.skip("this file system refuses such names")
    out_bytes, err_bytes = io.BytesIO(), io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(out_bytes, encoding="utf-8"))
    monkeypatch.setattr(sys, "stderr", io.TextIOWrapper(err_bytes, encoding="utf-8"))
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    code = main(["--isolated", "--output-format", output_format, "tree"])
    sys.stdout.flush()
    sys.stderr.flush()
    out, err = out_bytes.getvalue().decode(), err_bytes.getvalue().decode()
    assert code == 1, err
    assert "Traceback" not in err
    shown = [f"{HOSTILE.parent}/\\xff\\xfe.py", f"{HOSTILE.parent}/new\\nline.py"]
    if output_format == "text":
        assert e902_lines(out) == [
            f"{path}:1:7: E902 syntax error: invalid syntax" for path in shown
        ]
        assert INCIDENT_LA001 in out
    elif output_format == "json":
        items = json.loads(out)
        assert sorted(i["path"] for i in items if i["code"] == "E902") == sorted(shown)
        assert [i["code"] for i in items].count("LA001") == 1
    elif output_format == "github":
        assert out.count("title=E902") == 2 and out.count("LA001") >= 1
    else:
        results = json.loads(out)["runs"][0]["results"]
        assert sorted(r["ruleId"] for r in results) == ["E902", "E902", "LA001"]


# ---- files that cannot be read ------------------------------------------------------------


def test_a_dangling_symlink_named_py(tree, capsys):
    os.symlink("nowhere.py", HOSTILE)
    code, out, err = run(capsys, "tree")
    assert_reported_and_nothing_lost(code, out, err, HOSTILE, "No such file or directory")


def test_a_symlink_loop(tree, capsys):
    loop_a = HOSTILE.with_name("loop_a.py")
    loop_b = HOSTILE.with_name("loop_b.py")
    os.symlink("loop_b.py", loop_a)
    os.symlink("loop_a.py", loop_b)
    os.symlink("..", HOSTILE.with_name("parent"))  # a folder loop too: walked once, no error
    started = time.perf_counter()
    code, out, err = run(capsys, "tree")
    assert time.perf_counter() - started < 30
    assert code == 1 and "Traceback" not in err
    assert e902_lines(out) == [
        f"{loop_a}:1:1: E902 Too many levels of symbolic links",
        f"{loop_b}:1:1: E902 Too many levels of symbolic links",
    ]
    assert INCIDENT_LA001 in out


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_named_py_is_not_opened(tree, capsys):
    os.mkfifo(HOSTILE)
    code, out, err = run(capsys, "tree")
    assert_reported_and_nothing_lost(code, out, err, HOSTILE, "not a regular file")


def test_an_unreadable_file(tree, capsys, monkeypatch):
    """Permissions, the in-process way: root reads through chmod 000, so Path.read_bytes is
    monkeypatched to raise PermissionError for the hostile file only."""
    HOSTILE.write_text("x = 1\n")
    real_read_bytes = pathlib.Path.read_bytes

    def read_bytes(self: pathlib.Path) -> bytes:
        if self.name == HOSTILE.name:
            raise PermissionError(13, "Permission denied", str(self))
        return real_read_bytes(self)

    monkeypatch.setattr(pathlib.Path, "read_bytes", read_bytes)
    code, out, err = run(capsys, "tree")
    assert_reported_and_nothing_lost(code, out, err, HOSTILE, "cannot read file", "Permission")


def test_a_file_deleted_between_discovery_and_reading(tree, capsys, monkeypatch):
    """In-process: discover() is wrapped so the file disappears right after it is listed."""
    HOSTILE.write_text("x = 1\n")
    real_discover = auditor.frontend.project.discover

    def discover_then_delete(*args, **kwargs):
        found = real_discover(*args, **kwargs)
        assert any(source.path.name == HOSTILE.name for source in found[0])
        HOSTILE.unlink()
        return found

    monkeypatch.setattr(auditor.frontend.project, "discover", discover_then_delete)
    code, out, err = run(capsys, "tree")
    assert_reported_and_nothing_lost(
        code, out, err, HOSTILE, "cannot read file", "No such file or directory"
    )


def test_a_file_replaced_by_a_folder_after_discovery(tree, capsys, monkeypatch):
    HOSTILE.write_text("x = 1\n")
    real_discover = auditor.frontend.project.discover

    def discover_then_swap(*args, **kwargs):
        found = real_discover(*args, **kwargs)
        HOSTILE.unlink()
        HOSTILE.mkdir()
        return found

    monkeypatch.setattr(auditor.frontend.project, "discover", discover_then_swap)
    code, out, err = run(capsys, "tree")
    assert_reported_and_nothing_lost(code, out, err, HOSTILE, "cannot read file")


@pytest.mark.parametrize(
    "failure",
    [
        lambda: RecursionError("maximum recursion depth exceeded"),
        lambda: MemoryError(),
        lambda: ValueError("something libcst did not expect"),
    ],
    ids=["recursion", "memory", "value"],
)
def test_an_unexpected_parser_failure_is_one_e902_not_the_end_of_the_audit(
    tree, capsys, monkeypatch, failure: Callable[[], BaseException]
):
    """Whatever escapes the parser for one file (a bug in it, or in libcst) is that file's
    E902; the other files are still audited."""
    HOSTILE.write_text("x = 1\n" + READ_BY_THE_AUDIT)
    real_parse = auditor.frontend.project.module_from_facts

    def module_from_facts(source, shown, data, facts):
        if source.path.name == HOSTILE.name:
            raise failure()
        return real_parse(source, shown, data, facts)

    monkeypatch.setattr(auditor.frontend.project, "module_from_facts", module_from_facts)
    code, out, err = run(capsys, "tree")
    name = type(failure()).__name__
    assert_reported_and_nothing_lost(code, out, err, HOSTILE, "cannot parse file", name)


# ---- all of them at once, through a real process ------------------------------------------


def test_every_hostile_file_at_once_in_a_child_process(tree):
    folder = HOSTILE.parent
    expected = {}
    for name, (data, words, position) in HOSTILE_BYTES.items():
        path = folder / f"{name.replace('-', '_')}.py"
        path.write_bytes(data)
        expected[str(path)] = (words, position)
    os.symlink("nowhere.py", folder / "dangling.py")
    expected[str(folder / "dangling.py")] = (("No such file",), "1:1")
    for argv in (["tree"], ["--output-format", "json", "tree"]):
        child = subprocess.run(
            [sys.executable, "-m", "auditor", "--isolated", *argv],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert child.returncode == 1, child.stderr
        assert "Traceback" not in child.stderr
        if argv[0] == "tree":
            errors = e902_lines(child.stdout)
            assert INCIDENT_LA001 in child.stdout
            assert len(errors) == len(expected)
            for line in errors:
                path, position = line.split(":", 1)[0], ":".join(line.split(":")[1:3])
                words, expected_position = expected[path]
                assert position == expected_position, line
                assert all(word in line for word in words), line
        else:
            items = json.loads(child.stdout)
            reported = {item["path"] for item in items if item["code"] == "E902"}
            assert reported == set(expected)
            assert all("\n" not in item["message"] for item in items)
            assert [
                (item["host"]["bytes_per_token"], item["device"]["bytes_per_token"])
                for item in items
                if item["code"] == "LA001"
            ] == [(132, 256)]


# ---- a class with thousands of buffers --------------------------------------------------

BUFFERS = 3000
ODD_ONE = 1234


def _big_pools() -> str:
    lines = [
        "import torch",
        "",
        "",
        "class ManyBuffersPool:",
        "    def __init__(self, size, layer_num):",
        "        self.size = size",
        "        self.layer_num = layer_num",
    ]
    lines += [
        f"        self.b_{i} = torch.zeros((layer_num, size, 8), dtype=torch.uint8)"
        for i in range(BUFFERS)
    ]
    lines += [
        "",
        "",
        "class ManyBuffersPoolHost:",
        "    def __init__(self, device_pool: ManyBuffersPool):",
        "        self.size = device_pool.size * 2",
        "        self.layer_num = device_pool.layer_num",
    ]
    lines += [
        f"        self.b_{i} = torch.zeros((self.layer_num, self.size, "
        f"{16 if i == ODD_ONE else 8}), dtype=torch.uint8)"
        for i in range(BUFFERS)
    ]
    return "\n".join(lines) + "\n"


def test_a_pool_with_3000_buffers_and_a_host_mirror(tree, capsys):
    path = tree / "many_buffers.py"
    path.write_text(_big_pools())
    started = time.perf_counter()
    code, out, err = run(capsys, "--show-unresolved", "tree")
    elapsed = time.perf_counter() - started
    assert elapsed < 120, f"took {elapsed:.0f}s"  # about 10s on a laptop, linear in buffers
    assert code == 1 and "Traceback" not in err
    assert e902_lines(out) == []
    findings = [line for line in out.splitlines() if ": LA" in line]
    host_line = 7 + BUFFERS + 6 + ODD_ONE + 1
    assert findings == [
        f"{path}:{host_line}:23: LA001 b_{ODD_ONE}: host and device disagree, "
        f"16 B/token/layer vs 8 B/token/layer: host ManyBuffersPoolHost.b_{ODD_ONE}: "
        f"16 x uint8 (1 B) = 16 B/token/layer; device ManyBuffersPool.b_{ODD_ONE}: "
        "8 x uint8 (1 B) = 8 B/token/layer; at every config point (1 of 1 config points)",
        next(line for line in out.splitlines() if INCIDENT_LA001 in line),
    ]
    assert f"device side: {path}:{7 + ODD_ONE + 1}:23" in out
    assert "unresolved: nothing" in out
    assert "Found 2 findings" in err and "3 device pools, 2 host pools, 3 pairs" in err


# ---- hostile configuration (cases test_settings.py, test_config.py, test_cli.py lack) -----


def assert_config_error(capsys, argv: list[str], *words: str) -> None:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert out == ""
    assert err.startswith("layout-audit: error: ") and err.count("\n") == 1, err
    for word in words:
        assert word in err, (word, err)


def test_config_that_is_a_folder(tree, capsys):
    assert_config_error(capsys, ["--config", "tree", "tree"], "tree", "cannot read")


def test_rule_pack_that_is_a_folder(tree, capsys):
    (tree / "pack.toml").mkdir()
    assert_config_error(
        capsys, ["--isolated", "--rule-pack", "tree/pack.toml", "tree"], "rule-packs", "pack.toml"
    )


@pytest.mark.parametrize(
    "text, words",
    [
        ('output-format = "xml"\n', ("output-format", "xml")),
        ("output-format = 3\n", ("output-format", "a string")),
        ("include = 3\n", ("include", "list of strings")),
    ],
)
def test_bad_values_not_covered_elsewhere(tree, capsys, text, words):
    (tree / "pyproject.toml").write_text("[tool.layout-audit]\n" + text)
    assert_config_error(capsys, ["tree"], str(tree / "pyproject.toml"), *words)


@pytest.mark.parametrize("where", ["pyproject", "rule-pack"])
def test_config_that_is_not_utf8_is_a_config_error(tree, capsys, where):
    text = b"[tool.layout-audit]\nselect = ['LA001']  # caf\xe9\n"
    if where == "pyproject":
        (tree / "pyproject.toml").write_bytes(text)
        argv = ["tree"]
    else:
        (tree / "pack.toml").write_bytes(b"[parameters]\ntokens = ['size']  # caf\xe9\n")
        argv = ["--isolated", "--rule-pack", "tree/pack.toml", "tree"]
    assert_config_error(capsys, argv, "toml")


def test_config_nested_too_deeply_is_a_config_error(tree, capsys):
    nested = "[" * 50_000 + "]" * 50_000
    (tree / "pyproject.toml").write_text(f"[tool.layout-audit]\nselect = {nested}\n")
    assert_config_error(capsys, ["tree"], "pyproject.toml")


def test_a_matrix_too_big_to_evaluate_names_the_limit(tree, capsys):
    """3,000 page sizes: the config point limit stops the search, and says so (a finding the
    skipped points would have shown must not vanish without a word)."""
    values = ", ".join(str(i) for i in range(1, 3001))
    (tree / "pyproject.toml").write_text(f"[tool.layout-audit.matrix]\npage_size = [{values}]\n")
    settings = load_settings(tree / "pyproject.toml")
    started = time.perf_counter()
    result = audit([tree], settings, Limits(max_config_points=40))
    assert time.perf_counter() - started < 30
    assert result.errors == []
    cut = [u for u in result.unresolved if "config point limit" in u.unknown.reason]
    assert {u.subject for u in cut} == {
        "MLATokenToKVPoolHost <- MLATokenToKVPool",
        "MLATokenToKVPoolHost <- DeepSeekV4TokenToKVPool",
    }
    assert all(u.unknown.location is not None for u in cut)


@pytest.mark.parametrize(
    "value",
    ["nan", "inf", "-inf", "0", "-1", "1.5", '"64"', "9" * 90, "[64]", "1e400"],
)
def test_odd_matrix_values_are_unresolved_never_guessed(tree, capsys, value):
    """Config values no real deployment has: nothing crashes, and every size they touch is
    unresolved (with a reason) rather than a made-up finding."""
    (tree / "pyproject.toml").write_text(f"[tool.layout-audit.matrix]\npage_size = [{value}]\n")
    code = main(["--show-unresolved", "tree"])
    out, err = capsys.readouterr()
    if code == 2:  # rejected as configuration: one line, naming the key
        assert out == "" and err.count("\n") == 1 and "matrix.page_size" in err
        return
    assert code in (0, 1) and "Traceback" not in err
    findings = [line for line in out.splitlines() if ": LA001 " in line]
    assert all(INCIDENT_LA001 in line for line in findings), findings
    if not findings:
        assert "unresolved: nothing" not in out


@pytest.mark.parametrize("name", sorted(set(UNREAD_HOSTILE_BYTES) - {"oversized"}))
def test_a_hostile_file_the_audit_does_not_need_is_not_read(tree, capsys, name):
    """Without anything that can make it matter (prefilter.py), a file is never parsed, so its
    bytes cannot be reported or cause harm; the search of its bytes must not fail either."""
    HOSTILE.write_bytes(UNREAD_HOSTILE_BYTES[name][0])
    code, out, err = run(capsys, "tree")
    assert code == 1 and "Traceback" not in out + err
    assert e902_lines(out) == [] and INCIDENT_LA001 in out, out
    assert "Found 1 finding" in err and "files with errors" not in err, err
