"""The pipeline, stage by stage: discover -> parse -> index -> pair -> evaluate -> check."""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from pathlib import Path

from auditor.checks import PAIR_CHECKS, la100_unused_suppression
from auditor.discover import discover
from auditor.evaluate import Evaluation, PoolEvaluator
from auditor.findings import Finding
from auditor.index import ProjectIndex
from auditor.interpret.values import Unknown
from auditor.limits import DEFAULT_LIMITS, Limits
from auditor.pairing import PoolCatalog, catalog
from auditor.parse import FileError, ParsedModule, parse_file
from auditor.settings import Settings
from auditor.suppressions import SuppressionIndex, scan


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
    files_read: int = 0
    seconds: float = 0.0

    @property
    def points_evaluated(self) -> int:
        return sum(len(e.points) for e in self.evaluations)


def display_path(path: Path) -> str:
    """Paths relative to the working directory when below it, as ruff prints them."""
    absolute = path.absolute()
    try:
        return str(absolute.relative_to(Path.cwd()))
    except ValueError:
        return str(absolute)


def _collect_unresolved(evaluation: Evaluation, into: dict[tuple, Unresolved]) -> None:
    pair = (
        evaluation.device.name
        if evaluation.host is None
        else (f"{evaluation.host.name} <- {evaluation.device.name}")
    )
    feasible = evaluation.feasible
    if evaluation.points and not feasible:
        first = evaluation.points[0]
        reason = first.failure or Unknown(
            f"no feasible config point: {first.infeasible.reason}", first.infeasible.location
        )
        into.setdefault((pair, reason.reason), Unresolved(pair, reason))
    for point in evaluation.points:
        if point.failure is not None:
            into.setdefault((pair, point.failure.reason), Unresolved(pair, point.failure))
        sides = [(evaluation.device.name, point.device)]
        if evaluation.host is not None:
            sides.append((evaluation.host.name, point.host))
        for class_name, figures in sides:
            for figure in figures.values():
                if figure.unknown is not None:
                    subject = f"{class_name}.{figure.name}"
                    key = (subject, figure.unknown.reason, figure.unknown.location)
                    into.setdefault(key, Unresolved(subject, figure.unknown))


def _apply_suppressions(
    result: AuditResult, parsed: list[ParsedModule], selected: set[str]
) -> None:
    """Drop silenced findings, then report suppressions that silenced nothing (LA100)."""
    suppressions = SuppressionIndex(
        [s for module in parsed for s in scan(module.display_path, module.tree.code)]
    )
    kept = []
    for finding in result.findings:
        location = finding.location
        if suppressions.silences(finding.code, location.path, location.line):
            result.suppressed.append(finding)
        else:
            kept.append(finding)
    result.findings = kept
    if la100_unused_suppression.CODE in selected:
        # LA100 itself is switched off with `ignore = ["LA100"]`, not with a comment
        result.findings.extend(la100_unused_suppression.findings(suppressions.unused(), selected))


def audit(paths: list[Path], settings: Settings, limits: Limits = DEFAULT_LIMITS) -> AuditResult:
    """Audit the Python files under `paths`. Never imports or runs any of them."""
    started = time.perf_counter()
    result = AuditResult()
    sources, problems = discover(
        paths,
        exclude=tuple(settings.exclude) if settings.exclude is not None else None,
        extend_exclude=tuple(settings.extend_exclude),
        respect_gitignore=settings.respect_gitignore,
        include=tuple(settings.include),
    )
    for path, why in problems:
        result.errors.append(FileError(display_path(path), 1, 1, why))
    parsed: list[ParsedModule] = []
    for source in sources:
        shown = display_path(source.path)
        outcome = parse_file(source, shown)
        if isinstance(outcome, FileError):
            result.errors.append(outcome)
        else:
            parsed.append(outcome)
    result.files_read = len(parsed)
    index = ProjectIndex(parsed)
    pools = catalog(index, settings)
    result.catalog = pools
    evaluator = PoolEvaluator(index, settings, limits)
    unresolved: dict[tuple, Unresolved] = {}
    for unknown in pools.unresolved:
        unresolved[("pairing", unknown.reason)] = Unresolved("pairing", unknown)
    paired_devices = set()
    selected = [code for code in settings.select if code not in settings.ignore]
    for pair in pools.pairs:
        evaluation = evaluator.evaluate(pair.device, pair.host)
        result.evaluations.append(evaluation)
        paired_devices.add(id(pair.device))
        _collect_unresolved(evaluation, unresolved)
        for code in selected:
            if code in PAIR_CHECKS:
                for finding in PAIR_CHECKS[code].check(evaluation, settings):
                    result.findings.append(dataclasses.replace(finding, pairing=pair.evidence))
    for device in pools.devices:
        if id(device) not in paired_devices:
            evaluation = evaluator.evaluate(device)
            result.evaluations.append(evaluation)
            _collect_unresolved(evaluation, unresolved)
    _apply_suppressions(result, parsed, set(selected))
    result.findings.sort(key=Finding.sort_key)
    result.errors.sort(key=lambda e: (e.path, e.line, e.column))
    result.unresolved = sorted(
        unresolved.values(),
        key=lambda u: (
            u.unknown.location.path if u.unknown.location else "",
            u.unknown.location.line if u.unknown.location else 0,
            u.subject,
            u.unknown.reason,
        ),
    )
    result.seconds = time.perf_counter() - started
    return result
