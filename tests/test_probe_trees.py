"""Trees of a probe written as other teams would (tests/data/probe15, each with a README saying
what it is), audited with no configuration: the buggy ones report their bug on the named
buffer and nothing else, the correct ones compare every pair and report nothing. The probe's
other trees, still missed (counts stored on `self` from two config objects, a host reading the
device's tensors for its shapes, nested config aliases, a host counting layers off a config
object taken for a device pool, a page size unpacked from a shape), are in the issue note."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from auditor.cli import main

ROOT = Path(__file__).resolve().parent / "data" / "probe15"
BUGGY = {
    "p04": {"latent"},
    "p07": {"key_cache", "value_cache"},
    "p09": {"blocks"},
    "p11": {"kv_buffer"},
}
CORRECT = ["p08", "p10", "p12"]


def audit(name: str, capsys) -> dict:
    code = main([str(ROOT / name), "--no-cache", "--isolated", "--output-format", "json"])
    report = json.loads(capsys.readouterr().out)
    report["exit"] = code
    return report


@pytest.mark.parametrize("name", sorted(BUGGY))
def test_a_buggy_tree_reports_its_bug(name: str, capsys) -> None:
    report = audit(name, capsys)
    assert "BUG" in (ROOT / name / "README.txt").read_text()
    assert report["exit"] == 1
    assert {f["code"] for f in report["findings"]} == {"LA001"}
    assert {f["message"].split(":", 1)[0] for f in report["findings"]} == BUGGY[name]
    summary = report["summary"]
    assert summary["pairs_compared"] == summary["pairs"] == 1 and summary["unresolved"] == 0


@pytest.mark.parametrize("name", CORRECT)
def test_a_correct_tree_is_compared_and_clean(name: str, capsys) -> None:
    report = audit(name, capsys)
    assert "CORRECT" in (ROOT / name / "README.txt").read_text()
    assert report["exit"] == 0 and report["findings"] == []
    summary = report["summary"]
    assert summary["pairs_compared"] == summary["pairs"] >= 1 and summary["unresolved"] == 0
