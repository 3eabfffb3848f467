"""The audited code is input, never code to run: auditing a tree whose every execution path
would leave a marker file must leave none."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIXTURE = REPO / "fixtures" / "never_run"


def _run(args: list[str], marker: Path, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, LAYOUT_AUDIT_MARKER=str(marker))
    env.pop("PYTHONPATH", None)
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_the_fixture_really_writes_markers_when_imported(tmp_path: Path) -> None:
    """Control: the fixture is armed, so the next test can fail."""
    marker = tmp_path / "marker"
    done = _run([sys.executable, "-c", "import pools.kv"], marker, FIXTURE)
    assert done.returncode == 0, done.stderr
    written = marker.read_text().splitlines()
    for stage in ("module body", "class body", "decorator", "default", "__init_subclass__"):
        assert stage in written


def test_auditing_writes_no_marker(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    done = _run(
        [
            sys.executable,
            "-m",
            "auditor",
            str(FIXTURE),
            "--output-format",
            "json",
            "--show-unresolved",
        ],
        marker,
        tmp_path,
    )
    assert "Traceback" not in done.stderr
    findings = json.loads(done.stdout)["findings"]
    # the pools were analysed, not skipped: `touch("shape")` was followed (it returns 64)
    # without being run, and the host's fixed 64 x bf16 row disagrees with fp8 devices
    assert done.returncode == 1, done.stderr
    assert {f["device"]["bytes_per_token"] for f in findings} == {64}
    assert not marker.exists(), marker.read_text()


def test_auditing_from_inside_the_tree_writes_no_marker(tmp_path: Path) -> None:
    """Even with the audited tree as the working directory (conftest.py, sitecustomize.py)."""
    marker = tmp_path / "marker"
    done = _run([sys.executable, "-m", "auditor", "."], marker, FIXTURE)
    assert done.returncode in (0, 1), done.stderr
    assert not marker.exists(), marker.read_text()
