"""What an audit returns: findings, errors, unresolved items and what was evaluated.

The reports (report/) render it; the cache (incremental/) stores it whole.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from auditor.checks.findings import Finding
from auditor.evaluation.evaluate import Evaluation
from auditor.frontend.parse import FileError
from auditor.interpret.values import Unknown
from auditor.pairing.catalog import PoolCatalog


@dataclass(frozen=True)
class Unresolved:
    """Something the interpreter could not determine, and what it was trying to determine."""

    subject: str
    unknown: Unknown


@dataclass
class AuditResult:
    findings: list[Finding] = field(default_factory=list)
    suppressed: list[Finding] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)
    unresolved: list[Unresolved] = field(default_factory=list)
    evaluations: list[Evaluation] = field(default_factory=list)
    catalog: PoolCatalog | None = None
    files_read: int = 0  # files read and parsed (E902 files excluded)
    files_found: int = 0  # files discovered
    files_indexed: int = 0  # of those read, the ones that could matter and went through libcst
    seconds: float = 0.0

    @property
    def points_evaluated(self) -> int:
        return sum(len(e.points) for e in self.evaluations)
