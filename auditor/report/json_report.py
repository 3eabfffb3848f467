"""JSON output: an array of findings (file errors included with code E902)."""

from __future__ import annotations

import json
from typing import TextIO

from auditor.engine import AuditResult


def render(result: AuditResult, out: TextIO) -> None:
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
    json.dump(items, out, indent=2)
    out.write("\n")
