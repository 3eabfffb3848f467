"""`# layout-audit: ignore[...]` silences findings on its line or the line below; unused ones are LA100."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from auditor.checks.suppressions import scan
from auditor.pipeline import audit
from auditor.settings import load_settings

REPO = Path(__file__).resolve().parent.parent
HOST = Path("sglang/srt/mem_cache/memory_pool_host.py")
FINDING_LINE = 96  # the host index-K allocation in fixtures/incident_buggy


@pytest.fixture
def incident(tmp_path: Path) -> Path:
    target = tmp_path / "incident"
    shutil.copytree(REPO / "fixtures" / "incident_buggy", target)
    return target


def _comment(tree: Path, line: int, comment: str) -> None:
    path = tree / HOST
    lines = path.read_text().splitlines()
    lines[line - 1] += f"  {comment}"
    path.write_text("\n".join(lines) + "\n")


def _codes(tree: Path, **overrides) -> list[str]:
    settings = load_settings(None)
    for key, value in overrides.items():
        setattr(settings, key, value)
    return [f.code for f in audit([tree], settings).findings]


def test_unsuppressed_incident_reports_la001(incident: Path) -> None:
    assert _codes(incident) == ["LA001"]


@pytest.mark.parametrize(
    ("line", "comment"),
    [
        (FINDING_LINE, "# layout-audit: ignore[LA001]"),
        (FINDING_LINE, "# layout-audit: ignore"),
        (FINDING_LINE, "# Layout-Audit: ignore[la001, LA100]"),
        (FINDING_LINE - 1, "# layout-audit: ignore[LA001]"),
    ],
)
def test_suppression_silences_the_finding(incident: Path, line: int, comment: str) -> None:
    _comment(incident, line, comment)
    assert _codes(incident) == []


def test_suppression_for_another_code_does_not_silence(incident: Path) -> None:
    _comment(incident, FINDING_LINE, "# layout-audit: ignore[LA100]")
    assert sorted(_codes(incident)) == ["LA001", "LA100"]


def test_suppression_two_lines_above_does_not_silence(incident: Path) -> None:
    _comment(incident, FINDING_LINE - 2, "# layout-audit: ignore[LA001]")
    assert sorted(_codes(incident)) == ["LA001", "LA100"]


def test_unused_suppression_is_reported_with_its_location(incident: Path) -> None:
    _comment(incident, 20, "# layout-audit: ignore")
    result = audit([incident], load_settings(None))
    stale = [f for f in result.findings if f.code == "LA100"]
    assert len(stale) == 1
    assert stale[0].location.line == 20
    assert stale[0].location.path.endswith(str(HOST))


def test_unused_suppression_not_reported_when_la100_ignored(incident: Path) -> None:
    _comment(incident, 20, "# layout-audit: ignore")
    assert _codes(incident, ignore=["LA100"]) == ["LA001"]


def test_suppression_inside_a_string_is_not_a_suppression() -> None:
    source = 'x = "# layout-audit: ignore"\ny = 1  # layout-audit: ignore[LA001]\n'
    found = scan("f.py", source)
    assert [(s.line, s.codes) for s in found] == [(2, frozenset({"LA001"}))]
