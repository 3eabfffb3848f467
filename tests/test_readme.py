"""The README's two set-up commands stay true: CI runs the test one, and the audit one works."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _commands() -> list[str]:
    readme = (REPO / "README.md").read_text()
    section = readme.split("## Set up and run", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", section)


def test_readme_gives_exactly_two_setup_commands() -> None:
    commands = _commands()
    assert len(commands) == 2
    assert commands[0].endswith("layout-audit fixtures/incident_buggy")
    assert commands[1].endswith("python -m pytest -q")


def test_ci_runs_the_readme_test_command() -> None:
    script = (REPO / ".ci" / "run").read_text()
    assert _commands()[1] in script.splitlines()


def test_readme_audit_command_prints_the_incident_finding() -> None:
    """The audit half of the first command (the install half is what CI itself exercises)."""
    audit = _commands()[0].rsplit("&& ", 1)[1].split()
    done = subprocess.run(
        [sys.executable, "-m", "auditor", *audit[1:]],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1, done.stderr
    assert "LA001" in done.stdout
    assert "132 B/token/layer vs 256 B/token/layer" in done.stdout
    assert "index_k_dtype=bfloat16" in done.stdout
