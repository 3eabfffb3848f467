"""Config mistakes and wrong paths are said, not passed over: a setting no audited code reads, a
misspelt table, an unknown key (listing the whole schema), a bad flag (one line), no Python
files (a warning, exit 0 as ruff), a cache that cannot be written (one notice)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import write_tree

from auditor import engines
from auditor.cli import main
from auditor.incremental.cache import CACHE_ROOT_ENV
from auditor.settings import PROJECT_KEYS

DEVICE = """
    import os
    import torch

    def is_hip():
        return False

    class KVCache:
        def __init__(self, size, layer_num, page_size=1, dtype: torch.dtype = torch.bfloat16):
            width = 128 * page_size if is_hip() else 128
            if os.environ.get("USE_WIDE_KV"):
                width *= 2
            self.k_buffer = [torch.zeros((size + 1, width), dtype=dtype) for _ in range(layer_num)]
"""


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    write_tree(tmp_path, {"pools/__init__.py": "", "pools/device.py": DEVICE})
    return tmp_path


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _warnings(err: str) -> list[str]:
    """The configuration warnings (not the coverage notice that a tree has no host pool)."""
    return [
        line
        for line in err.splitlines()
        if line.startswith("layout-audit: warning:") and " pool found in " not in line
    ]


def test_settings_no_code_reads_are_warnings_naming_the_nearest_real_name(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tree / "pyproject.toml").write_text(
        "[tool.layout-audit.matrix]\npage_sise = [1, 16]\npage_size = [1, 64]\n"
        "[tool.layout-audit.flags]\nis_hipp = [false, true]\nis_hip = [false, true]\n"
        '[tool.layout-audit.switches]\nUSE_WIDE_KVV = [false, "1"]\nUSE_WIDE_KV = [false, "1"]\n'
    )
    code, _, err = _run(capsys, "--no-cache", ".")
    assert code == 0, err
    warnings = _warnings(err)
    assert len(warnings) == 3, err
    assert (
        "pyproject.toml: matrix.page_sise: no audited code reads it (did you mean page_size?)"
        in err
    )
    assert "flags.is_hipp: no audited code reads it (did you mean is_hip?)" in err
    assert "switches.USE_WIDE_KVV: no audited code reads it (did you mean USE_WIDE_KV?)" in err


def test_settings_the_code_reads_give_no_warning(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tree / "pyproject.toml").write_text(
        "[tool.layout-audit.matrix]\npage_size = [16]\n"  # one value: read, though not varied
        "[tool.layout-audit.flags]\nis_hip = [true]\n"
    )
    code, _, err = _run(capsys, "--no-cache", ".")
    assert code == 0 and _warnings(err) == [], err


@pytest.mark.parametrize("table", ["layout_audit", "layoutaudit"])
def test_a_misspelt_table_is_a_warning(
    tree: Path, capsys: pytest.CaptureFixture[str], table: str
) -> None:
    (tree / "pyproject.toml").write_text(f'[tool.{table}]\nselect = ["LA001"]\n')
    code, _, err = _run(capsys, "--no-cache", ".")
    assert code == 0
    assert _warnings(err) == [
        f"layout-audit: warning: {tree / 'pyproject.toml'}: [tool.{table}] is not read; "
        "the table is [tool.layout-audit]"
    ]


def test_the_unknown_key_error_lists_the_whole_schema(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tree / "pyproject.toml").write_text("[tool.layout-audit]\nselekt = []\n")
    code, out, err = _run(capsys, ".")
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1
    assert "unknown key 'selekt' (did you mean 'select'? expected one of " in err
    listed = err.split("expected one of ", 1)[1].rstrip(")\n").split(", ")
    assert listed == [*PROJECT_KEYS, *engines.tables()]  # an engine's own table (vllm) too
    for key in ("select", "ignore", "include", "exclude", "rule-packs", "output-format"):
        assert key in listed


def test_a_bad_flag_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--no-such-flag", "."])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err == (
        "layout-audit: error: unrecognized arguments: --no-such-flag (see layout-audit --help)\n"
    )


@pytest.mark.parametrize("contents", [{}, {"notes.txt": "no python here\n"}])
def test_no_python_files_is_a_warning_and_exit_0_as_ruff(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    contents: dict[str, str],
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty").mkdir()
    write_tree(tmp_path / "empty", contents)
    code, out, err = _run(capsys, "--isolated", "empty")
    assert code == 0 and out == ""
    assert _warnings(err) == ["layout-audit: warning: no Python files found under empty"]


def test_an_unwritable_cache_is_one_notice_line(
    tree: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CACHE_ROOT_ENV, str(tree))  # the cache folder in the tree, as by default
    (tree / ".layout_audit_cache").write_text("a file where the cache folder would go\n")
    code, _, err = _run(capsys, "--isolated", ".")
    assert code == 0
    notices = [line for line in err.splitlines() if "notice" in line]
    assert len(notices) == 1, err
    assert notices[0].startswith("layout-audit: notice: cannot write the cache at ")
    assert "every run starts cold" in notices[0]
    code, _, err = _run(capsys, "--isolated", "--no-cache", ".")
    assert "notice" not in err
