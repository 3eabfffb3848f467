"""The pipeline, stage by stage: discover -> parse -> index -> pair -> evaluate -> check."""

from __future__ import annotations

import dataclasses
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from auditor.checks import DEVICE_CHECKS, PAIR_CHECKS, la100_unused_suppression
from auditor.declared import DeclaredHostEvaluator
from auditor.discover import discover
from auditor.evaluate import Evaluation, PoolEvaluator
from auditor.findings import Finding
from auditor.index import ProjectIndex
from auditor.interpret.values import Unknown
from auditor.limits import DEFAULT_LIMITS, Limits
from auditor.pairing import PoolCatalog, catalog, evaluate_pairs
from auditor.parse import (
    MAX_FILE_BYTES,
    ClassOutline,
    FileError,
    LateParseError,
    ParsedModule,
    parse_file,
)
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
    files_read: int = 0  # files read and parsed (E902 files excluded)
    files_found: int = 0  # files discovered
    files_indexed: int = 0  # of those read, the ones that could matter and went through libcst
    seconds: float = 0.0

    @property
    def points_evaluated(self) -> int:
        return sum(len(e.points) for e in self.evaluations)


def display_path(path: Path) -> str:
    """Paths relative to the working directory when below it, as ruff prints them."""
    absolute = path.absolute()
    try:
        shown = str(absolute.relative_to(Path.cwd()))
    except ValueError:
        shown = str(absolute)
    return shown if shown.isprintable() else "".join(_printable(c) for c in shown)


def _printable(char: str) -> str:
    """A character of a path as output can show it: undecodable bytes (lone surrogates from
    the file system) as `\\xff`, control characters as `\\n`, so every report line stays one
    line of valid UTF-8."""
    if char.isprintable():
        return char
    if "\udc80" <= char <= "\udcff":
        return f"\\x{ord(char) - 0xDC00:02x}"
    return char.encode("unicode_escape").decode("ascii")


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
    if evaluation.points and not feasible:
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


_CLASS_NAME = re.compile(r"^[ \t]*class[ \t]+(\w+)", re.MULTILINE)


def may_define_pools(parsed: list[ParsedModule], settings: Settings) -> set[int]:
    """The modules (by id) that may define a pool class, or hold a suppression comment.

    A device pool's constructor takes a layer-count parameter and a host pool's a device-pool
    parameter (pairing.py): a class may be a pool if an `__init__` in its body takes one, or
    if it derives from such a class. Derivation is followed by name, from each file's outline
    (CPython's syntax tree, no libcst): a class naming, in its bases, a class already kept or
    an `import ... as` alias of one is kept too, until nothing changes. Other modules cannot
    define a pool; they are indexed only if resolving a name needs them.
    """
    words = (
        set(settings.layer_params)
        | set(settings.device_pool_params)
        | set(settings.buffer_info_params)
    )
    kept: set[int] = set()
    names: set[str] = set()  # classes that may be pools, or derive from one
    aliases: list[tuple[str, str]] = []
    pending: list[tuple[int, ClassOutline]] = []  # classes not known to be pool-like yet
    for module in parsed:
        shape = module.outline
        if shape is None:  # CPython did not parse it: every class in it may be a pool
            kept.add(id(module))
            try:
                names.update(_CLASS_NAME.findall(module.tree.code))
            except LateParseError:
                pass
            continue
        if module.may_suppress:
            kept.add(id(module))
        aliases.extend(shape.aliases)
        for cls in shape.classes:
            if cls.init_params & words:
                kept.add(id(module))
                names.add(cls.name)
            else:
                pending.append((id(module), cls))
    changed = True
    while changed:
        changed = False
        for original, alias in aliases:
            if original in names and alias not in names:
                names.add(alias)
                changed = True
        still = []
        for module_id, cls in pending:
            if cls.bases & names:
                names.add(cls.name)
                kept.add(module_id)
                changed = True
            else:
                still.append((module_id, cls))
        pending = still
    return kept


def _apply_suppressions(
    result: AuditResult, parsed: list[ParsedModule], selected: set[str]
) -> None:
    """Drop silenced findings, then report suppressions that silenced nothing (LA100)."""
    found = []
    for module in parsed:
        if module.may_suppress:  # parsed up front (may_define_pools keeps it), or rejected
            try:
                found.extend(scan(module.display_path, module.tree.code))
            except LateParseError:
                pass
    suppressions = SuppressionIndex(found)
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
        try:
            size = source.path.stat().st_size
        except OSError:
            size = 0  # parse_file reports why it cannot be read
        try:
            if size > MAX_FILE_BYTES:  # checked before reading, so a huge file is never loaded
                outcome = FileError(
                    shown, 1, 1, f"file is {size} bytes, over the {MAX_FILE_BYTES} byte limit"
                )
            else:
                outcome = parse_file(source, shown)
        except Exception as error:  # noqa: BLE001 - one bad file must not end the audit
            outcome = FileError(shown, 1, 1, f"cannot parse file: {type(error).__name__}: {error}")
        if isinstance(outcome, FileError):
            # one line per error, whatever the exception text held (`path:line:col: E902 ...`)
            message = " ".join(outcome.message.split())
            result.errors.append(dataclasses.replace(outcome, message=message))
        else:
            parsed.append(outcome)
    result.files_found = len(sources)
    late_errors: list[FileError] = []
    index = ProjectIndex(parsed, may_define_pools(parsed, settings), late_errors.append)
    pools = catalog(index, settings, parsed)
    result.catalog = pools
    evaluator = PoolEvaluator(index, settings, limits)
    unresolved: dict[tuple, Unresolved] = {}
    for unknown in pools.unresolved:
        unresolved[("pairing", unknown.reason)] = Unresolved("pairing", unknown)
    paired_devices = set()
    selected = [code for code in settings.select if code not in settings.ignore]
    evaluated = evaluate_pairs(pools, evaluator)
    declared_evaluator = DeclaredHostEvaluator(index, settings, limits)
    declared_pairs, declared_unknowns = declared_evaluator.declared_pairs(pools.devices)
    for unknown in declared_unknowns:
        unresolved[("declared", unknown.reason)] = Unresolved("declared host layout", unknown)
    pools.add_declared(declared_pairs)  # after evaluate_pairs: these have their own evaluator
    evaluated += [
        (pair, declared_evaluator.evaluate(pair.device, pair.host)) for pair in declared_pairs
    ]
    for pair, evaluation in evaluated:
        if not any(evaluation is e for e in result.evaluations):
            result.evaluations.append(evaluation)
            _collect_unresolved(evaluation, unresolved)
        paired_devices.add(id(pair.device))
    for code in selected:
        if code not in PAIR_CHECKS:
            continue
        check = PAIR_CHECKS[code]
        if hasattr(check, "check_pairs"):  # judges the pairs together (LA001: across sites)
            result.findings.extend(check.check_pairs(evaluated, settings))
            continue
        seen: set[tuple] = set()  # sites sharing one evaluation would repeat its findings
        for pair, evaluation in evaluated:
            for finding in check.check(evaluation, settings):
                if (finding.location, finding.message) in seen:
                    continue
                seen.add((finding.location, finding.message))
                result.findings.append(
                    dataclasses.replace(finding, pairing=pair.evidence, pairing_detail=pair.detail)
                )
    for code in selected:
        if code in DEVICE_CHECKS:
            result.findings.extend(DEVICE_CHECKS[code].check_device(result.evaluations, settings))
    for device in pools.devices:
        if id(device) not in paired_devices:
            evaluation = evaluator.evaluate(device)
            result.evaluations.append(evaluation)
            _collect_unresolved(evaluation, unresolved)
    _apply_suppressions(result, parsed, set(selected))
    for error in late_errors:  # files libcst rejected when first needed (CPython accepted them)
        result.errors.append(dataclasses.replace(error, message=" ".join(error.message.split())))
    result.files_read = len(parsed) - len(late_errors)
    result.files_indexed = sum(1 for module in parsed if module.is_parsed) - len(late_errors)
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
