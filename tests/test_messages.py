"""What a reader of the output gets: the model dimensions behind the figures, pairing evidence
short enough to read (whole in JSON), a pointer to `--explain` for each code, and a glossary
for every term."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from auditor.checks.findings import Finding
from auditor.cli import main
from auditor.location import Location
from auditor.pipeline import AuditResult
from auditor.report import json_report, text

REPO = Path(__file__).resolve().parent.parent
INCIDENT = str(REPO / "fixtures" / "incident_buggy")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_finding_names_the_model_dimensions_behind_its_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = _run(capsys, "--isolated", "--no-cache", INCIDENT)
    assert code == 1
    lines = out.splitlines()
    assert lines[1].startswith("  model dimensions: ")
    # the device's 256 B is index_head_dim (128) x bfloat16: the 128 is named
    assert "index_head_dim=128" in lines[1] and "kv_lora_rank=512" in lines[1]
    code, out, _ = _run(capsys, "--isolated", "--no-cache", "--output-format", "json", INCIDENT)
    (finding,) = json.loads(out)["findings"]
    assert finding["model_dimensions"]["index_head_dim"] == 128
    assert finding["config"] == {
        "dtype": "bfloat16",
        "index_k_dtype": "bfloat16",
        "layout": "layer_first",
        "page_size": 1,
    }


def _finding(code: str, line: int, pairing: str = "") -> Finding:
    return Finding(code, f"message {line}", Location("pool.py", line, 1), pairing=pairing)


def test_first_finding_of_each_code_hints_explain() -> None:
    result = AuditResult(
        findings=[_finding("LA001", 1), _finding("LA001", 2), _finding("LA100", 3)]
    )
    out = io.StringIO()
    text.render(result, out, io.StringIO())
    hints = [line for line in out.getvalue().splitlines() if "--explain" in line]
    assert hints == ["  help: layout-audit --explain LA001", "  help: layout-audit --explain LA100"]
    lines = out.getvalue().splitlines()
    assert lines.index(hints[0]) == 1  # right after the first LA001, not the second


def test_long_pairing_evidence_is_shortened_in_text_and_whole_in_json() -> None:
    long = "call sites " + ", ".join(f"a.py:{n} (isinstance(kv, Pool{n}))" for n in range(40))
    result = AuditResult(findings=[_finding("LA001", 1, long)])
    out = io.StringIO()
    text.render(result, out, io.StringIO())
    (pairing,) = [line for line in out.getvalue().splitlines() if "pairing:" in line]
    assert len(pairing) < 220, len(pairing)
    assert pairing.endswith("… (whole in --output-format json)")
    out = io.StringIO()
    json_report.render(result, out)
    assert json.loads(out.getvalue())["findings"][0]["pairing"] == long


def test_explain_knows_e902(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "--explain", "E902")
    assert code == 0
    assert out.startswith("E902 (unreadable-file): File could not be read or parsed")
    assert "## What it finds" in out


def test_the_glossary_explains_every_term_the_output_uses() -> None:
    glossary = (REPO / "docs" / "glossary.md").read_text()
    terms = re.findall(r"^- \*\*(.+?)\*\*", glossary, re.MULTILINE)
    text_of_terms = " ".join(terms) + glossary
    for term in (
        "no feasible config point",
        "0+1/tok",
        "B/token/layer",
        "config point",
        "model dimensions",
        "unresolved",
        "pairing",
        "matrix truncated",
        "known finding",
        "stale entry",
        "E902",
    ):
        assert term in text_of_terms, term
