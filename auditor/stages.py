"""The stages over modules that may hold a pool: index -> catalog -> evaluations -> checks.

pipeline.py reads and pre-filters the files and calls `run` only where a pool (or an engine
stage's work, or a suppression comment) may be: this module loads libcst and the interpreter.
"""

from __future__ import annotations

from auditor import dtypes, engines
from auditor.checks import CheckContext, run_checks
from auditor.checks.findings import Finding
from auditor.checks.suppressions import SuppressionIndex, scan
from auditor.coverage import measure_coverage
from auditor.engines.base import StageInput, StageOutcome
from auditor.evaluation.evaluate import DEMANDED_PER_DIMENSION, Evaluation, PoolEvaluator
from auditor.frontend.parse import FileError, LateParseError, ParsedModule
from auditor.frontend.project import Project
from auditor.incremental.results import ResultStore
from auditor.interpret.values import Unknown
from auditor.limits import Limits
from auditor.pairing.catalog import Pair, PoolCatalog, catalog, evaluate_pairs
from auditor.pairing.declared import DeclaredHostEvaluator
from auditor.pairing.factories import drop_never_built
from auditor.progress import COUNTERS
from auditor.result import AuditResult, Unresolved, count_files, file_errors
from auditor.settings import Settings


def run(
    project: Project,
    parsed: list[ParsedModule],
    errors: list[FileError],
    candidates: set[int],
    settings: Settings,
    limits: Limits,
    store: ResultStore,
    jobs: int = 1,
) -> AuditResult:
    """Index -> catalog -> evaluations -> checks, over the modules read (`candidates`: those
    the outline rule keeps up front)."""
    late_errors: list[FileError] = []  # files libcst rejected when first needed
    if candidates:  # torch's dtype facts: stored, or read by a child while this one parses
        dtypes.start_reading(store.cache)
    index = store.index(parsed, candidates, late_errors.append)
    pools = catalog(index, settings, parsed)
    index.pool_classes = frozenset(id(c) for c in [*pools.devices, *pools.hosts])
    index.registering = {}
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
    return result


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
    for host, location, why in result.coverage.by_device:  # not compared either: said
        items[(host, why, location)] = Unresolved(
            host, Unknown(f"host pool not compared: sized by its device: {why}", location)
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
    """Device pools no host mirrors: evaluated alone (--show-pools, unresolved items). A device
    pool in a host's place (a sibling built beside another) was evaluated in its pair."""
    paired = {id(pair.device) for pair, _ in evaluated} | {id(pair.host) for pair, _ in evaluated}
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
    for name, values in evaluation.untried.items():  # (a closed set, `Format(kind)`'s members)
        reason = (
            f"values the code demands, not tried (at most {DEMANDED_PER_DIMENSION} a "
            f"dimension): {name}={'/'.join(str(v) for v in values)}"
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
