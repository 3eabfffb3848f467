"""The audit, stage by stage: project -> index -> catalog -> evaluations -> findings.

`audit` is the spine: each line is one stage over the data the stage before it made. Caching
wraps stages (incremental/: a result store checked before the work it saves, and an evaluator
that reuses evaluations), it does not live inside them.
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

from auditor import dtypes, engines
from auditor.checks import CheckContext, run_checks
from auditor.checks.findings import Finding
from auditor.checks.suppressions import SuppressionIndex, scan
from auditor.coverage import measure_coverage
from auditor.engines.base import StageInput, StageOutcome
from auditor.evaluation.evaluate import Evaluation, PoolEvaluator
from auditor.frontend.parse import FileError, LateParseError, ParsedModule
from auditor.frontend.prefilter import outline_rule, pool_words
from auditor.frontend.project import (
    Project,
    ReadFile,
    display_path,
    find_sources,
    modules,
    read_file,
)
from auditor.incremental.cache import Cache
from auditor.incremental.results import ResultStore
from auditor.interpret.memos import MEMOS
from auditor.interpret.values import Unknown
from auditor.limits import DEFAULT_LIMITS, Limits
from auditor.pairing.catalog import Pair, PoolCatalog, catalog, evaluate_pairs
from auditor.pairing.declared import DeclaredHostEvaluator
from auditor.pairing.factories import drop_never_built
from auditor.progress import COUNTERS
from auditor.result import AuditResult, Unresolved
from auditor.settings import Settings

__all__ = ["AuditResult", "Unresolved", "audit"]


def audit(
    paths: list[Path],
    settings: Settings,
    limits: Limits = DEFAULT_LIMITS,
    cache: Cache | None = None,
    jobs: int = 1,
) -> AuditResult:
    """Audit the Python files under `paths`. Never imports or runs any of them.

    `cache` (disabled by default) holds what earlier runs computed, keyed by the bytes it was
    computed from; `jobs` worker processes run the per-file CPython check and the evaluations.
    """
    started = time.perf_counter()
    store = ResultStore(cache if cache is not None else Cache(None), settings, limits)
    sources, problems = find_sources(paths, settings)
    result = store.unchanged_on_disk(sources, problems)  # no file read
    if result is None:
        files = [_counted(read_file(source)) for source in sources]
        facts = store.file_facts(files, jobs, pool_words(settings))
        project = Project(sources, problems, files, facts)
        result = store.unchanged_content(project)  # no file parsed with libcst
        if result is None:
            result, parsed = run(project, settings, limits, store, jobs)
            result.seconds = time.perf_counter() - started
            if not result.stages:  # an engine stage's files are not recorded (StageOutcome)
                store.save(parsed, result)
            return result
    result.seconds = time.perf_counter() - started
    return result


def _counted(read: ReadFile) -> ReadFile:
    COUNTERS.files += 1  # the progress line (progress.py)
    return read


def run(
    project: Project, settings: Settings, limits: Limits, store: ResultStore, jobs: int = 1
) -> tuple[AuditResult, list[ParsedModule]]:
    """The stages proper, over files already read: index -> catalog -> evaluations -> checks."""
    MEMOS.forget()  # an earlier run's syntax is not met again
    parsed, errors = modules(project.files, project.facts)
    late_errors: list[FileError] = []  # files libcst rejected when first needed
    candidates = outline_rule(parsed, pool_words(settings))
    if candidates:  # torch's dtype facts: stored, or read by a child while this one parses
        dtypes.start_reading(store.cache)
    index = store.index(parsed, candidates, late_errors.append)
    pools = catalog(index, settings, parsed)
    COUNTERS.pools, COUNTERS.pairs = len(pools.devices) + len(pools.hosts), len(pools.pairs)
    evaluator = store.evaluator(
        "evaluation",
        index,
        PoolEvaluator(index, settings, limits, pools.roles),
        project,
        parsed,
        late_errors,
    )
    declared = DeclaredHostEvaluator(index, settings, limits, pools.roles)
    declared_evaluator = store.evaluator("declared", index, declared, project, parsed, late_errors)
    evaluated, declared_unknowns = evaluate_all(
        pools, evaluator, declared, declared_evaluator, parsed, jobs
    )
    stages = engine_stages(project, parsed, index, settings, limits)
    context = CheckContext(evaluated, unique(e for _, e in evaluated), settings, stages)
    findings = run_checks(context, suppressions_in(parsed))
    evaluations = context.evaluations + [
        evaluator.evaluate(device) for device in unpaired_devices(pools, evaluated)
    ]
    result = AuditResult(
        findings=sorted(findings, key=Finding.sort_key),
        suppressed=context.suppressed,
        errors=file_errors(project.problems, errors, late_errors),
        unresolved=unresolved(pools, declared_unknowns, evaluations, stages),
        evaluations=evaluations,
        catalog=pools,
        stages=stages,
    )
    count_files(result, project.sources, parsed, late_errors)
    result.coverage = measure_coverage(evaluated, pools, settings, result.files_read)
    result.unresolved = sorted_unresolved(result.unresolved + never_compared(result))
    dtypes.stop_reading()  # a child still reading facts no pool needed
    return result, parsed


def never_compared(result: AuditResult) -> list[Unresolved]:
    """Each pair never compared, and each host never paired, as an unresolved item naming it
    (unknown is not success)."""
    items = {
        (pair.title, pair.why, pair.location): Unresolved(
            pair.title, Unknown(f"never compared: {pair.why}", pair.location)
        )
        for pair in result.coverage.never_compared
    }
    for host, location, why in result.coverage.unpaired:  # its layout compared with nothing
        items[(host, why, location)] = Unresolved(
            host, Unknown(f"host pool never paired: {why}", location)
        )
    return list(items.values())


def evaluate_all(
    pools: PoolCatalog,
    evaluator,
    declared: DeclaredHostEvaluator,
    declared_evaluator,
    parsed: list[ParsedModule] = (),
    jobs: int = 1,
) -> tuple[list[tuple[Pair, Evaluation]], list[Unknown]]:
    """Every pair evaluated (the catalog's in `jobs` processes), then the pairs device pools
    declare in data (found by building each device pool, so after the others; they have their
    own evaluator)."""
    evaluated = evaluate_pairs(pools, evaluator, parsed, jobs)
    evaluated, never = drop_never_built(evaluated, pools)
    pools.unresolved.extend(never)  # a factory chose another class wherever it could be built
    declared_pairs, declared_unknowns = declared.declared_pairs(pools.devices)
    pools.add_declared(declared_pairs)
    evaluated += [
        (pair, declared_evaluator.evaluate(pair.device, pair.host)) for pair in declared_pairs
    ]
    return evaluated, declared_unknowns


def engine_stages(
    project: Project, parsed: list[ParsedModule], index, settings: Settings, limits: Limits
) -> list[StageOutcome]:
    """The engines' own stages (a model beside the pools), each over the files read."""
    data = {shown: d for _, shown, d in project.files if not isinstance(d, FileError)}
    outcomes = []
    for engine in engines.with_stages():
        table = settings.engine_tables.get(engine.table, {}) if engine.table else {}
        outcome = engine.stage(StageInput(data, parsed, index, settings, limits, table))
        if outcome is not None:
            outcomes.append(outcome)
    return outcomes


def unique(evaluations) -> list[Evaluation]:
    """Each evaluation once, in order (sites sharing one evaluation list it once)."""
    seen: dict[int, Evaluation] = {}
    for evaluation in evaluations:
        seen.setdefault(id(evaluation), evaluation)
    return list(seen.values())


def unpaired_devices(pools: PoolCatalog, evaluated: list[tuple[Pair, Evaluation]]) -> list:
    """Device pools no host mirrors: evaluated alone (--show-pools, unresolved items)."""
    paired = {id(pair.device) for pair, _ in evaluated}
    return [device for device in pools.devices if id(device) not in paired]


def suppressions_in(parsed: list[ParsedModule]) -> SuppressionIndex:
    """The `# layout-audit: ignore` comments of the modules that may hold one."""
    found = []
    for module in parsed:
        if module.may_suppress:  # parsed up front (the outline rule keeps it), or rejected
            try:
                found.extend(scan(module.display_path, module.tree.code))
            except LateParseError:
                pass
    return SuppressionIndex(found)


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


def unresolved(
    pools: PoolCatalog,
    declared_unknowns: list[Unknown],
    evaluations: list[Evaluation],
    stages: list[StageOutcome] = (),
) -> list[Unresolved]:
    """What could not be determined, once per subject and reason, in file order."""
    found: dict[tuple, Unresolved] = {}
    for unknown in pools.unresolved:
        found[("pairing", unknown.reason)] = Unresolved("pairing", unknown)
    for unknown in declared_unknowns:
        found[("declared", unknown.reason)] = Unresolved("declared host layout", unknown)
    for evaluation in evaluations:
        _collect_unresolved(evaluation, found)
    for outcome in stages:
        for subject, unknown in outcome.unresolved:
            found[(outcome.engine, subject, unknown.reason)] = Unresolved(subject, unknown)
    return sorted_unresolved(list(found.values()))


def sorted_unresolved(items: list[Unresolved]) -> list[Unresolved]:
    """In file order."""
    return sorted(
        items,
        key=lambda u: (
            u.unknown.location.path if u.unknown.location else "",
            u.unknown.location.line if u.unknown.location else 0,
            u.subject,
            u.unknown.reason,
        ),
    )


def _collect_unresolved(evaluation: Evaluation, into: dict[tuple, Unresolved]) -> None:
    pair = (
        evaluation.device.name
        if evaluation.host is None
        else (f"{evaluation.host.name} <- {evaluation.device.name}")
    )
    feasible = evaluation.feasible
    if evaluation.truncated:
        reason = (
            f"config point limit reached: {len(evaluation.points)} points evaluated, "
            "the rest of the matrix was not"
        )
        into.setdefault(
            (pair, reason), Unresolved(pair, Unknown(reason, evaluation.device.location))
        )
    if evaluation.points and not feasible and evaluation.host is None:  # a pair: coverage says
        first = evaluation.points[0]
        reason = (
            first.failure
            if first.failure is not None  # an Unknown has no truth value
            else Unknown(
                f"no feasible config point: {first.infeasible.reason}", first.infeasible.location
            )
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
