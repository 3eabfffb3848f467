"""JSON output: an array of findings (file errors included with code E902); with
`--show-pairs`, one item per host/device pair after them (`"code": "PAIR"`)."""

from __future__ import annotations

import json
from typing import TextIO

from auditor.pipeline import AuditResult
from auditor.report.text import assumed_by_pair, pair_key


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
            "pairing": pair.evidence,
            "pairing_evidence": pair.detail,
            "assumed": assumed.get(pair_key(pair.host, pair.device, pair.site), []),
        }
        for pair in catalog.pairs
    ]
    for cls, why in catalog.not_hosts:
        location = cls.location
        items.append(
            {
                "code": "NOT-A-HOST",
                "class": cls.name,
                "path": location.path,
                "line": location.line,
                "reason": why,
            }
        )
    return items


def render(result: AuditResult, out: TextIO, show_pairs: bool = False) -> None:
    items = [
        {
            "code": "E902",
            "path": error.path,
            "line": error.line,
            "column": error.column,
            "message": error.message,
        }
        for error in result.errors
    ]
    items.extend(finding.as_json() for finding in result.findings)
    if show_pairs:
        items.extend(pair_items(result))
    json.dump(items, out, indent=2)
    out.write("\n")
