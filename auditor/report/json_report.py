"""JSON output: one object, `{"findings": [...], "coverage": [...], "summary": {...}}`.

`findings` holds file errors (code E902) and findings; `coverage` one item per host/device pair
with its config points compared / feasible / total and why it was never compared
(coverage.py); `summary` the counts of the summary line. With `--show-pairs`, `pairs` lists
each pair's evidence (`"code": "PAIR"`) and the classes not taken for hosts (`NOT-A-HOST`);
with `--show-unresolved`, `unresolved` lists what could not be worked out.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from auditor.report.dimensions import model_dimensions, platform
from auditor.report.text import assumed_by_pair, pair_key
from auditor.result import AuditResult


def pair_items(result: AuditResult) -> list[dict]:
    """Every pair with its evidence, and the classes taken for host pools but not paired."""
    catalog = result.catalog
    if catalog is None:
        return []
    assumed = assumed_by_pair(result)
    items: list[dict] = [
        {
            "code": "PAIR",
            "host": pair.host.name,
            "device": pair.device.name,
            "pairing": pair.evidence.text(),
            "pairing_evidence": pair.evidence.as_json(),
            "assumed": assumed.get(pair_key(pair.host, pair.device, pair.site), []),
        }
        for pair in catalog.pairs
    ]
    codes = {
        "not a host pool": "NOT-A-HOST",
        "never paired": "NOT-PAIRED",
        "sized by its device": "SIZED-BY-DEVICE",
        "not audited": "NOT-AUDITED",
    }
    for label, cls, why in catalog.left_out():
        location = cls.location
        items.append(
            {
                "code": codes[label],
                "class": cls.name,
                "path": location.path,
                "line": location.line,
                "reason": why,
            }
        )
    return items


def summary(result: AuditResult) -> dict[str, Any]:
    """The summary line as data: counts, coverage of the pairs, and the nothing-audited notice."""
    return {
        "findings": len(result.findings),
        "files": result.files_read,
        "files_with_errors": len(result.errors),
        **result.coverage.summary_json(),
        "config_points": result.points_evaluated,
        "unresolved": len(result.unresolved),
        # an engine's own stage (vLLM): its part of the summary line and its figures
        **(
            {"stages": {o.engine: {"summary": o.summary, **o.counts} for o in result.stages}}
            if result.stages
            else {}
        ),
    }


def unresolved_items(result: AuditResult) -> list[dict]:
    """What the interpreter could not work out, one item each, as `--show-unresolved` lists
    it in text: where, what it was working out (`subject`), why, and the kind of not-knowing
    (`kind`: `values.Why`, e.g. "outside the audited tree", "config value not listed")."""
    items = []
    for item in result.unresolved:
        location = item.unknown.location
        items.append(
            {
                "path": location.path if location else None,
                "line": location.line if location else None,
                "column": location.column if location else None,
                "subject": item.subject,
                "reason": item.unknown.reason,
                "kind": item.unknown.why.value,
            }
        )
    return items


def render(
    result: AuditResult, out: TextIO, show_pairs: bool = False, show_unresolved: bool = False
) -> None:
    findings = [
        {
            "code": "E902",
            "path": error.path,
            "line": error.line,
            "column": error.column,
            "message": error.message,
        }
        for error in result.errors
    ]
    for finding in result.findings:
        item = finding.as_json()
        dimensions = model_dimensions(result, finding)
        if dimensions:  # after the varied config point: the values it was computed with
            item["model_dimensions"] = dimensions
        on = platform(result, finding)
        if on is not None:  # the platform's values, not the pack's, made the figures
            item["platform"] = on
        findings.append(item)
    document: dict[str, Any] = {
        "findings": findings,
        "coverage": [pair.as_json() for pair in result.coverage.pairs],
    }
    if show_pairs:
        document["pairs"] = pair_items(result)
    if show_unresolved:
        document["unresolved"] = unresolved_items(result)
    document["summary"] = summary(result)
    json.dump(document, out, indent=2)
    out.write("\n")
