"""What an audit returns: findings, errors, unresolved items and what was evaluated; and how
its file errors and counts are made (the stages and the answer to a tree without pools share it).

The reports (report/) render it; the cache (incremental/) stores it whole.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from auditor.coverage import Coverage
from auditor.frontend.parse import FileError, ParsedModule
from auditor.frontend.project import display_path

if TYPE_CHECKING:  # annotations only: a run without pools renders a result without them
    from auditor.checks.findings import Finding
    from auditor.engines.base import StageOutcome
    from auditor.evaluation.evaluate import Evaluation
    from auditor.interpret.values import Unknown
    from auditor.pairing.pool_catalog import PoolCatalog


@dataclass(frozen=True)
class Unresolved:
    """Something the interpreter could not determine, and what it was trying to determine."""

    subject: str
    unknown: Unknown


@dataclass
class AuditResult:
    """Everything one audit found, and what it compared (`coverage`): reports render this."""

    findings: list[Finding] = field(default_factory=list)
    suppressed: list[Finding] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)
    unresolved: list[Unresolved] = field(default_factory=list)
    evaluations: list[Evaluation] = field(default_factory=list)
    catalog: PoolCatalog | None = None
    coverage: Coverage = field(default_factory=Coverage)  # which pairs were really compared
    files_read: int = 0  # files read and parsed (E902 files excluded)
    files_found: int = 0  # files discovered
    files_indexed: int = 0  # of those read, the ones that could matter and went through libcst
    seconds: float = 0.0
    stages: list[StageOutcome] = field(default_factory=list)  # the engines' own stages

    @property
    def stage_rows(self) -> list:
        """Every engine stage's rows for `--show-pools` (vLLM: each KV spec, at each point)."""
        return [row for outcome in self.stages for row in outcome.rows]

    @property
    def points_evaluated(self) -> int:
        return sum(len(e.points) for e in self.evaluations)


def file_errors(
    problems: list[tuple[Path, str]], errors: list[FileError], late_errors: list[FileError]
) -> list[FileError]:
    """E902 errors: paths that could not be listed, files CPython rejected or that could not be
    read, and files libcst rejected when first needed (once per file, one line each)."""
    found = [FileError(display_path(path), 1, 1, why) for path, why in problems] + errors
    reported = set()
    for error in late_errors:  # also those an evaluation read from the cache needed
        if error.path not in reported:
            reported.add(error.path)
            found.append(dataclasses.replace(error, message=" ".join(error.message.split())))
    return sorted(found, key=lambda e: (e.path, e.line, e.column))


def count_files(
    result: AuditResult, sources: list, parsed: list[ParsedModule], late_errors: list[FileError]
) -> None:
    """The summary line's file counts."""
    rejected = {module.display_path for module in parsed if module.rejected}
    reported = {error.path for error in late_errors}
    result.files_found = len(sources)
    result.files_read = len(parsed) - len(rejected | reported)
    result.files_indexed = sum(1 for module in parsed if module.is_parsed) - len(rejected)
