"""LA100: a `# layout-audit: ignore` comment that silences nothing."""

from __future__ import annotations

from auditor.checks.findings import Finding
from auditor.checks.suppressions import Suppression
from auditor.location import Location

CODE = "LA100"
NAME = "unused-suppression"
SUMMARY = "Suppression comment that no longer matches any finding"
EXPLANATION = """\
## What it finds
A `# layout-audit: ignore` or `# layout-audit: ignore[CODE, ...]` comment on a line where (and
below which) layout-audit reports nothing of the listed codes.

## Why it matters
Suppressions outlive the code they were written for. A stale one hides the next real mismatch
on that line: the incident behind this tool was a host buffer that silently stopped matching
its device buffer after an unrelated change.

## Example
    self.kv_buffer = self.init_kv_buffer()  # layout-audit: ignore[LA001]   <- nothing to silence

## Use instead
Delete the comment, or narrow it to the codes that are still reported there.
"""


def findings(unused: list[Suppression], selected: set[str]) -> list[Finding]:
    """LA100 for each unused suppression; a code not selected in this run is not judged."""
    result = []
    for suppression in unused:
        if suppression.codes is not None and not suppression.codes & selected:
            continue
        what = ", ".join(sorted(suppression.codes)) if suppression.codes else "every code"
        result.append(
            Finding(
                code=CODE,
                message=f"unused suppression ({what}): nothing is reported here",
                location=Location(suppression.path, suppression.line, suppression.column),
            )
        )
    return result
