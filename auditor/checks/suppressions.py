"""Inline suppressions: `# layout-audit: ignore[LA001]` on the reported line or the line above.

A bare `# layout-audit: ignore` silences every code there. Suppressions that silence nothing are
reported as LA100, so stale ones do not pile up (as ruff's RUF100 does).
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field

PATTERN = re.compile(r"#\s*layout-audit:\s*ignore(?:\[(?P<codes>[A-Za-z0-9_,\s]*)\])?", re.I)


@dataclass
class Suppression:
    path: str
    line: int
    column: int
    codes: frozenset[str] | None  # None: every code
    used: set[str] = field(default_factory=set)

    def covers(self, code: str) -> bool:
        return self.codes is None or code in self.codes


def scan(path: str, source: str) -> list[Suppression]:
    """Suppression comments in one file; only real comments count, not strings."""
    found: list[Suppression] = []
    if "layout-audit" not in source.lower():
        return found
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return found
    for token in tokens:
        if token.type != tokenize.COMMENT:
            continue
        match = PATTERN.search(token.string)
        if match is None:
            continue
        codes = match.group("codes")
        parsed = (
            frozenset(c.strip().upper() for c in codes.split(",") if c.strip())
            if codes is not None
            else None
        )
        found.append(Suppression(path, token.start[0], token.start[1] + 1, parsed))
    return found


class SuppressionIndex:
    """Suppressions by file and line; answers whether a finding at path:line is silenced."""

    def __init__(self, suppressions: list[Suppression]) -> None:
        self.all = suppressions
        self.by_line: dict[tuple[str, int], list[Suppression]] = {}
        for suppression in suppressions:
            self.by_line.setdefault((suppression.path, suppression.line), []).append(suppression)

    def silences(self, code: str, path: str, line: int) -> bool:
        for candidate_line in (line, line - 1):
            for suppression in self.by_line.get((path, candidate_line), []):
                if suppression.covers(code):
                    suppression.used.add(code)
                    return True
        return False

    def unused(self) -> list[Suppression]:
        return [s for s in self.all if not s.used]
