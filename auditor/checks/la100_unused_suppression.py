"""LA100: a `# layout-audit: ignore` comment that silences nothing."""

from __future__ import annotations

from dataclasses import dataclass

from auditor.checks.base import EXAMPLE_DEVICE, Check, CheckContext, Scope
from auditor.checks.findings import Facts, Finding
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


@dataclass(frozen=True)
class Unused(Facts):
    """A suppression comment that silenced nothing."""

    codes: tuple[str, ...]  # the codes it names, sorted; none: every code

    def sentence(self) -> str:
        what = ", ".join(self.codes) if self.codes else "every code"
        return f"unused suppression ({what}): nothing is reported here"


def findings(unused: list[Suppression], selected: set[str]) -> list[Finding]:
    """LA100 for each unused suppression; a code not selected in this run is not judged."""
    result = []
    for suppression in unused:
        if suppression.codes is not None and not suppression.codes & selected:
            continue
        result.append(
            Finding(
                code=CODE,
                facts=Unused(tuple(sorted(suppression.codes or ()))),
                location=Location(suppression.path, suppression.line, suppression.column),
            )
        )
    return result


class UnusedSuppression(Check):
    code, name, summary, explanation = CODE, NAME, SUMMARY, EXPLANATION
    scope = Scope.SUPPRESSIONS

    valid = (
        {
            "dev.py": EXAMPLE_DEVICE,
            "host.py": "import torch\nfrom dev import Dev\n\nclass Host:\n    def __init__(self, device_pool: Dev, size, layer_num):\n        self.k_buffer = [torch.zeros((size, 64), dtype=torch.bfloat16) for _ in range(layer_num)]  # layout-audit: ignore[LA001]\n",
        },
    )
    invalid = (
        {
            "dev.py": EXAMPLE_DEVICE,
            "host.py": "import torch\nfrom dev import Dev\n\nclass Host:\n    def __init__(self, device_pool: Dev, size, layer_num):\n        self.k_buffer = [torch.zeros((size, 64), dtype=torch.bfloat16) for _ in range(layer_num)]  # layout-audit: ignore[LA003]\n",
        },
    )

    def run(self, context: CheckContext) -> list[Finding]:
        return findings(context.suppressions.unused(), set(context.selected))
