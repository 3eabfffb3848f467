"""A finding is data and its message is written from it: moving an LA001 finding to the call
site whose arguments make the difference is a `SiteNote`, not an edit of its text; duplicates
reached through several pairs are told apart by data; no check imports another check."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from auditor.checks import la001_buffer_size_mismatch as la001
from auditor.checks.findings import Finding, SiteNote
from auditor.location import Location
from auditor.pairing.evidence import Evidence
from auditor.pipeline import audit
from auditor.settings import load_settings

REPO = Path(__file__).resolve().parent.parent
CHECKS = REPO / "auditor" / "checks"


def test_a_message_is_written_from_the_facts_and_the_site_note() -> None:
    plain = Finding("LA100", "as written", Location("a.py", 3, 1))
    assert plain.message == "as written"
    note = SiteNote(
        "b.py:7", ("x is not passed here (its default applies)", "y is passed here only")
    )
    moved = dataclasses.replace(plain, site_note=note)
    assert moved.message == (
        "as written; the call site's arguments make the difference (the call at b.py:7 "
        "agrees): x is not passed here (its default applies); y is passed here only"
    )
    assert moved.as_json()["message"] == moved.message
    assert "site_note" not in moved.as_json()  # the JSON report is unchanged


def test_a_finding_moved_to_its_call_site_keeps_its_facts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    result = audit([Path("fixtures/forgotten_override_buggy")], load_settings(None))
    [finding] = [f for f in result.findings if f.code == "LA001"]
    assert finding.site_note is not None
    assert any("override_kv_cache_dim" in d for d in finding.site_note.differing)
    # the facts are those of the host's formula; the location is the call's
    assert isinstance(finding.facts, la001.SizeDisagreement)
    assert finding.location.path.endswith("decode_offload.py")
    assert finding.location != finding.host.location
    assert finding.message == finding.facts.sentence() + finding.site_note.sentence()
    assert finding.message.startswith("kv_buffer: host and device disagree, 576 B/token/layer")


def test_la001_over_several_pairs_reports_one_disagreement_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same facts reached through two pairs give one finding with both pairs' evidence;
    the facts, not the text, decide."""
    monkeypatch.chdir(REPO)
    settings = load_settings(None)
    seen: list = []
    check_pairs = la001.check_pairs
    monkeypatch.setattr(la001, "check_pairs", lambda ev, s: seen.extend(ev) or check_pairs(ev, s))
    audit([Path("fixtures/incident_buggy")], settings)
    [(pair, evaluation)] = [(p, e) for p, e in seen if la001.check(e, settings)]
    other = dataclasses.replace(pair, evidence=Evidence.by_annotation("annotation Other"))
    findings = la001.check_pairs([(pair, evaluation), (other, evaluation)], settings)
    assert len(findings) == 1
    assert findings[0].pairing == (
        f"{pair.evidence.text()} | annotation Other (no construction site in the audited paths)"
    )
    [alone] = la001.check_pairs([(pair, evaluation)], settings)
    assert findings[0].facts == alone.facts and findings[0].message == alone.message


def test_no_check_imports_another_check() -> None:
    """Shared helpers live in checks/wording.py (and findings.py, base.py), not in a check."""
    check_modules = {p.stem for p in CHECKS.glob("la[0-9]*.py")}
    assert check_modules, "no check modules found"
    wrong = []
    for path in sorted(CHECKS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                stem = name.rsplit(".", 1)[-1]
                if name.startswith("auditor.checks.") and stem in check_modules:
                    if stem != path.stem:
                        wrong.append(f"{path.name} imports {name}")
    for outside in (REPO / "auditor" / "coverage.py", *(REPO / "auditor" / "report").glob("*.py")):
        text = outside.read_text(encoding="utf-8")
        wrong += [f"{outside.name} imports {m}" for m in check_modules if m in text]
    assert wrong == []
