"""Checks are classes found by walking auditor/checks: code, names, explanation, scope, run."""

from __future__ import annotations

import pytest

import auditor.checks
from auditor.checks import Check, CheckContext, Scope, checks, run_checks, selected
from auditor.checks.findings import Finding
from auditor.checks.suppressions import SuppressionIndex
from auditor.location import Location
from auditor.settings import ConfigError, Settings

SECTIONS = ["## What it finds", "## Why it matters", "## Example", "## Use instead"]


def test_every_check_module_is_found_with_its_description():
    found = checks()
    assert list(found) == ["LA001", "LA002", "LA003", "LA100", "LA201", "LA202"]
    for code, check in found.items():
        assert isinstance(check, Check) and check.code == code
        assert check.name and check.summary and isinstance(check.scope, Scope)
        positions = [check.explanation.find(section) for section in SECTIONS]
        assert -1 not in positions and positions == sorted(positions), code


def test_selection_and_its_errors():
    assert selected(Settings()) == ["LA001", "LA002", "LA003", "LA100", "LA201", "LA202"]
    assert selected(Settings(select=["LA003", "LA001"], ignore=["LA001"])) == ["LA003"]
    with pytest.raises(ConfigError, match=r"^cfg.toml: ignore: unknown code 'LA999' \(known: "):
        selected(Settings(ignore=["LA999"], codes_from="cfg.toml"))


class Everywhere(Check):
    code, name, summary, explanation, scope = "LA999", "everywhere", "-", "-", Scope.PAIRS

    def run(self, context: CheckContext) -> list[Finding]:
        return [Finding(code=self.code, facts="here", location=Location("a.py", 3, 1))]


def test_a_new_check_runs_and_its_findings_are_suppressed_like_others(monkeypatch):
    registry = {**checks(), "LA999": Everywhere()}
    monkeypatch.setattr(auditor.checks, "checks", lambda: registry)
    monkeypatch.setattr(auditor.checks, "codes", lambda: tuple(registry))  # (named LA999)
    context = CheckContext([], [], Settings())
    assert [f.code for f in run_checks(context, SuppressionIndex([]))] == ["LA999"]
    from auditor.checks.suppressions import scan

    comment = scan("a.py", "x = 1\n\ny = 2  # layout-audit: ignore[LA999]\n")
    context = CheckContext([], [], Settings())
    assert run_checks(context, SuppressionIndex(comment)) == []
    assert [f.code for f in context.suppressed] == ["LA999"]
