"""Trees of a probe written as other teams would (tests/data/probe15, each with a README saying
what it is), audited with no configuration: the buggy ones report their bug on the named
buffer and nothing else, the correct ones compare every pair and report nothing. `pNNf` is the
fixed variant of the buggy `pNN` (`p01b`, `p05b` buggy variants of the correct `p01`, `p05`):
every tree of the probe is here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from auditor.cli import main

ROOT = Path(__file__).resolve().parent / "data" / "probe15"
# buggy tree: the (code, buffer) of each finding it must give, and no other
BUGGY = {
    "p01b": {("LA001", "kv_cache")},  # a host slicing the device layer's shape one too far
    "p02": {("LA001", "pool")},  # counts kept on self off two config objects
    "p03": {("LA003", "k_scales_zeros"), ("LA003", "v_scales_zeros")},  # an int flag's branch
    "p04": {("LA001", "latent")},
    "p05b": {("LA001", "kv_scale")},  # the page size read off the device's shape
    "p06": {("LA001", "kv_scale")},  # nested config aliases, a site passing the callers' config
    "p07": {("LA001", "key_cache"), ("LA001", "value_cache")},
    "p09": {("LA001", "blocks")},
    "p11": {("LA001", "kv_buffer")},
}
CORRECT = ["p01", "p02f", "p03f", "p05", "p06f", "p08", "p10", "p12"]


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
    found = {(f["code"], f["message"].split(":", 1)[0]) for f in report["findings"]}
    assert found == BUGGY[name]
    summary = report["summary"]
    assert summary["pairs_compared"] == summary["pairs"] == 1 and summary["unresolved"] == 0


@pytest.mark.parametrize("name", CORRECT)
def test_a_correct_tree_is_compared_and_clean(name: str, capsys) -> None:
    report = audit(name, capsys)
    assert "CORRECT" in (ROOT / name / "README.txt").read_text()
    assert report["exit"] == 0 and report["findings"] == []
    summary = report["summary"]
    assert summary["pairs_compared"] == summary["pairs"] >= 1 and summary["unresolved"] == 0
