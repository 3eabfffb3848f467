"""Baselines: known findings are not reported, new ones are, whatever line the code is on; a
changed figure on a baselined buffer is new; stale entries are reported; every format."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
HOST = "sglang/srt/mem_cache/memory_pool_host.py"
FORMULA = "self.index_head_dim + self.index_head_dim // self.quant_block_size * 4"


def _audit(tree: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "auditor", ".", "--no-cache", *args],
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """The incident, with its one finding written to `baseline.json`."""
    root = tmp_path / "engine"
    shutil.copytree(REPO / "fixtures" / "incident_buggy", root)
    done = _audit(root, "--write-baseline", "baseline.json")
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert "wrote 1 finding to baseline.json" in done.stderr
    return root


def _edit_host(tree: Path, old: str, new: str) -> None:
    host = tree / HOST
    text = host.read_text()
    assert old in text
    host.write_text(text.replace(old, new, 1))


def test_baselined_finding_is_not_reported(tree: Path) -> None:
    done = _audit(tree, "--baseline", "baseline.json")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "LA001" not in done.stdout
    assert "1 known finding not shown" in done.stderr
    assert "stale" not in done.stderr


def test_baseline_does_not_depend_on_line_numbers(tree: Path) -> None:
    _edit_host(tree, "import ", "# a comment\n# and another\n\nimport ")
    done = _audit(tree, "--baseline", "baseline.json")
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_changed_figure_on_a_baselined_buffer_is_a_new_finding(tree: Path) -> None:
    _edit_host(tree, FORMULA, FORMULA.replace("* 4", "* 8"))
    done = _audit(tree, "--baseline", "baseline.json")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "LA001 index_k_with_scale_buffer" in done.stdout
    assert "disagree, 136 B/token/layer vs" in done.stdout
    assert "0 known findings not shown" in done.stderr
    # the old disagreement is gone: its entry is stale, named with its figures
    assert "1 stale entry" in done.stderr
    assert "(132 vs 256)" in done.stderr


def test_every_output_format_leaves_baselined_findings_out(tree: Path) -> None:
    done = _audit(tree, "--baseline", "baseline.json", "--output-format", "json")
    assert done.returncode == 0 and json.loads(done.stdout)["findings"] == []
    done = _audit(tree, "--baseline", "baseline.json", "--output-format", "sarif")
    assert done.returncode == 0 and json.loads(done.stdout)["runs"][0]["results"] == []
    done = _audit(tree, "--baseline", "baseline.json", "--output-format", "github")
    assert done.returncode == 0 and "::error" not in done.stdout
    _edit_host(tree, FORMULA, FORMULA.replace("* 4", "* 8"))
    for output_format in ("json", "sarif", "github", "text"):
        done = _audit(tree, "--baseline", "baseline.json", "--output-format", output_format)
        assert done.returncode == 1, output_format
        assert "136" in done.stdout, output_format


def test_baseline_from_the_config_file(tree: Path) -> None:
    (tree / "pyproject.toml").write_text('[tool.layout-audit]\nbaseline = "baseline.json"\n')
    (tree / "sub").mkdir()
    done = subprocess.run(  # run from elsewhere: the path is relative to the config's folder
        [sys.executable, "-m", "auditor", "..", "--no-cache"],
        cwd=tree / "sub",
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 known finding not shown" in done.stderr


@pytest.mark.parametrize(
    ("content", "cause"),
    [
        (None, "cannot read baseline: No such file or directory"),
        ("{not json", "not a baseline (invalid JSON"),
        ('{"findings": []}', 'expected an object with "layout-audit-baseline": 1'),
        ('{"layout-audit-baseline": 1, "findings": [1]}', '"findings" must be a list'),
    ],
)
def test_a_bad_baseline_is_one_line_naming_the_file(
    tree: Path, content: str | None, cause: str
) -> None:
    bad = tree / "bad.json"
    if content is not None:
        bad.write_text(content)
    done = _audit(tree, "--baseline", "bad.json")
    assert done.returncode == 2
    assert done.stderr.startswith("layout-audit: error: bad.json: ")
    assert cause in done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr


def test_an_unwritable_baseline_is_one_line(tree: Path) -> None:
    done = _audit(tree, "--write-baseline", "no/such/folder/b.json")
    assert done.returncode == 2
    assert "cannot write baseline" in done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr


def test_stale_entries_are_not_reported_while_a_file_cannot_be_read(tree: Path) -> None:
    """A syntax error hides the findings of the pools it breaks: their entries are not stale."""
    _edit_host(tree, "import ", "import (\n")
    done = _audit(tree, "--baseline", "baseline.json")
    assert done.returncode == 1
    assert "E902" in done.stdout
    assert "stale entr" not in done.stderr.replace("stale entries not checked", "")
    assert "stale entries not checked while 1 file could not be read" in done.stderr
