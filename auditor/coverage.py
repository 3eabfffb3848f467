"""Coverage: which host/device pairs were really compared, so that a clean run that compared
nothing is never mistaken for a clean run that compared everything (unknown is not success).

Definitions (docs/coverage.md):
- a *pair* is one entry of the pool catalog: a host pool, a device pool, and what pairs them
  (a call site, a declaration, the annotation or the config), as the summary line counts them;
- a pair is *compared at a config point* when the point is feasible (the code accepts it and
  every build finished) and at least one host buffer and its device counterpart (same name, or
  the `buffer-map` entry) both have resolved bytes per token per layer there: the comparison
  LA001 makes;
- a pair is *compared* when that holds at one config point or more; otherwise it is *never
  compared*, with the reason (one of `REASONS`) and the first underlying cause.

Pure data, computed once per audit from the (pair, evaluation) list and stored on the result
(`AuditResult.coverage`); every report and the corpus runner read it from there.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from auditor.location import Location

if TYPE_CHECKING:
    from auditor.evaluation.evaluate import Evaluation
    from auditor.pairing.catalog import Pair, PoolCatalog
    from auditor.settings import Settings

NOT_EVALUATED = "not evaluated"
INFEASIBLE = "no feasible config point"
REFUSED = "refused by the host"  # every point raised in the host's own constructor
VIEW = "a view of the device pool"  # the host holds the device's own tensors, nothing else
FAILED = "evaluation undecided"  # no point feasible, one or more could not be decided
NO_COUNTERPART = "no host buffer with a device counterpart"
HOST_UNRESOLVED = "host figures unresolved"
DEVICE_UNRESOLVED = "device figures unresolved"
BOTH_UNRESOLVED = "host and device figures unresolved"
REASONS = (
    NOT_EVALUATED,
    REFUSED,
    VIEW,
    INFEASIBLE,
    FAILED,
    NO_COUNTERPART,
    HOST_UNRESOLVED,
    DEVICE_UNRESOLVED,
    BOTH_UNRESOLVED,
)


@dataclass(frozen=True)
class EvaluationCoverage:
    """How many config points of one evaluation compared at least one buffer, and if none,
    why (`reason`, one of `REASONS`) and the first underlying cause (`detail`)."""

    points_total: int
    points_feasible: int
    points_compared: int
    reason: str | None = None
    detail: str | None = None

    @property
    def compared(self) -> bool:
        return self.points_compared > 0


@dataclass(frozen=True)
class PairCoverage:
    """One host/device pair of the catalog: its config points compared / feasible / total,
    and why it was never compared (None when it was)."""

    host: str  # class names
    device: str
    location: Location  # where the pair is decided: the call site, else the host class
    pairing: str  # the evidence, as --show-pairs prints it
    points_total: int
    points_feasible: int
    points_compared: int
    reason: str | None = None  # one of REASONS when never compared
    detail: str | None = None  # the first underlying cause, in the interpreter's words

    @property
    def compared(self) -> bool:
        return self.points_compared > 0

    @property
    def title(self) -> str:
        return f"{self.host} <- {self.device}"

    @property
    def why(self) -> str:
        """The reason with its cause, one line."""
        if self.reason is None:
            return ""
        return f"{self.reason}: {self.detail}" if self.detail else self.reason

    def as_json(self) -> dict[str, Any]:
        return {
            "host": self.host,
            "device": self.device,
            "path": self.location.path,
            "line": self.location.line,
            "pairing": self.pairing,
            "compared": self.compared,
            "points_compared": self.points_compared,
            "points_feasible": self.points_feasible,
            "points_total": self.points_total,
            "reason": self.reason,
            "detail": self.detail,
        }


@dataclass(frozen=True)
class Coverage:
    """What an audit compared: every pair's coverage, the pool counts, and, when nothing could
    be compared at all (no pool, or no pair), a notice saying what was looked for and how to
    configure it."""

    pairs: tuple[PairCoverage, ...] = ()
    device_pools: int = 0
    host_pools: int = 0
    notice: str | None = None
    # host pools nothing pairs with a device pool the audit builds: (host, where, why)
    unpaired: tuple[tuple[str, Location, str], ...] = ()
    # host pools nothing pairs that read their size per token off the device's own tensors
    # (pairing/sized_by_device.py): not compared, counted apart like views, (host, where, why)
    by_device: tuple[tuple[str, Location, str], ...] = ()

    @property
    def compared(self) -> int:
        """Pairs compared at one config point or more."""
        return sum(1 for pair in self.pairs if pair.compared)

    @property
    def never_compared(self) -> list[PairCoverage]:
        """Every pair not compared, the ones the host refuses included (listed everywhere)."""
        return [pair for pair in self.pairs if not pair.compared]

    @property
    def refused(self) -> list[PairCoverage]:
        """Pairs the host's constructor refuses at every config point: the code builds no such
        pair, so there is no layout to compare; counted apart, never as compared."""
        return [pair for pair in self.never_compared if pair.reason == REFUSED]

    @property
    def views(self) -> list[PairCoverage]:
        """Pairs whose "host" holds only the device pool's own tensors (a zero-copy view such
        as SGLang 0.5.23's `DevicePoolEntry`): no storage of its own, so no layout that could
        disagree; counted apart, never as compared."""
        return [pair for pair in self.never_compared if pair.reason == VIEW]

    @property
    def uncompared(self) -> list[PairCoverage]:
        """Pairs never compared that the code may build: what a green run must not hide."""
        return [pair for pair in self.never_compared if pair.reason not in (REFUSED, VIEW)]

    def reasons(self) -> dict[str, int]:
        """Pairs never compared (refused ones apart), counted by reason; most frequent first,
        then `REASONS` order."""
        counts = Counter(pair.reason or NOT_EVALUATED for pair in self.uncompared)
        return dict(sorted(counts.items(), key=lambda kv: (-kv[1], REASONS.index(kv[0]))))

    def line(self) -> str:
        """The summary line's part: `2 of 17 pairs compared, 15 never (12 no feasible config
        point, 3 host figures unresolved)`, then `, 1 host never paired`, `, 6 refused by the
        host` when some are (the 17 then counts the others); empty when there is neither a
        pair nor a host never paired."""
        if not self.pairs and not self.unpaired and not self.by_device:
            return ""
        refused, views = len(self.refused), len(self.views)
        parts = []
        if self.pairs:
            parts.append(f"{self.compared} of {len(self.pairs) - refused - views} pairs compared")
        never = len(self.uncompared)
        if never:
            grouped = ", ".join(f"{count} {reason}" for reason, count in self.reasons().items())
            parts.append(f"{never} never ({grouped})")
        if self.unpaired:  # a host whose layout nothing could be compared with
            count = len(self.unpaired)
            parts.append(f"{count} host{'s' if count != 1 else ''} never paired")
        if refused:
            parts.append(f"{refused} {REFUSED}")
        if views:
            parts.append(f"{views} view{'s' if views != 1 else ''} of the device pool")
        if self.by_device:
            count = len(self.by_device)
            parts.append(f"{count} host{'s' if count != 1 else ''} sized by its device")
        return ", ".join(parts)

    def summary_json(self) -> dict[str, Any]:
        """The counts, for the JSON summary and SARIF run properties."""
        return {
            "device_pools": self.device_pools,
            "host_pools": self.host_pools,
            "pairs": len(self.pairs),
            "pairs_compared": self.compared,
            "pairs_never_compared": len(self.uncompared),
            "pairs_refused_by_host": len(self.refused),
            "pairs_views_of_device": len(self.views),
            "hosts_never_paired": len(self.unpaired),
            "hosts_sized_by_device": len(self.by_device),
            "never_compared_reasons": self.reasons(),
            "notice": self.notice,
        }


def evaluation_coverage(evaluation: Evaluation, settings: Settings) -> EvaluationCoverage:
    """Count the config points of one (host, device) evaluation where a buffer was compared."""
    from auditor.checks.wording import comparisons  # with the evaluations (not in a run without)

    points = evaluation.points
    feasible = evaluation.feasible
    compared = 0
    host_missing = device_missing = None  # the first unresolved figure of each side
    candidates = False  # a host buffer with a device counterpart, at some feasible point
    for point in feasible:
        hit = False
        for name, host_figure, device_figure in comparisons(point.host, point.device, settings):
            if device_figure is None:
                continue
            candidates = True
            if host_figure.resolved and device_figure.resolved:
                hit = True
                continue
            if not host_figure.resolved and host_missing is None:
                host_missing = f"{name}: {host_figure.unknown.reason}"
            if not device_figure.resolved and device_missing is None:
                device_missing = f"{device_figure.name}: {device_figure.unknown.reason}"
        compared += hit
    counts = (len(points), len(feasible), compared)
    if compared:
        return EvaluationCoverage(*counts)
    if not points:
        return EvaluationCoverage(*counts, NOT_EVALUATED)
    if not feasible:
        failed = next((p.failure for p in points if p.failure is not None), None)
        infeasible = [p.infeasible for p in points if p.infeasible is not None]
        if failed is not None:
            detail = failed.reason
            if infeasible:
                detail += (
                    f" ({len(infeasible)} of {len(points)} points infeasible: "
                    f"{infeasible[0].reason})"
                )
            return EvaluationCoverage(*counts, FAILED, detail)
        first = points[0].infeasible
        reason = REFUSED if refused_by_host(evaluation) else INFEASIBLE
        return EvaluationCoverage(*counts, reason, first.reason if first else None)
    if not candidates and all(p.held and not p.host for p in feasible):
        held = sorted({n for p in feasible for n in p.held})
        detail = f"it holds the device's own tensors ({', '.join(held)}) and no storage of its own"
        return EvaluationCoverage(*counts, VIEW, detail)
    unresolved_host = next(
        (f"{n}: {f.unknown.reason}" for p in feasible for n, f in p.host.items() if not f.resolved),
        None,
    )
    if not candidates and unresolved_host is not None:
        # which host buffer mirrors which cannot be said while one is not known (a mirror
        # under other names is matched by what its storage holds: wording._sole_storage)
        return EvaluationCoverage(*counts, HOST_UNRESOLVED, unresolved_host)
    if not candidates:
        host = sorted({n for p in feasible for n in p.host})
        device = sorted({n for p in feasible for n in p.device})
        detail = f"host buffers: {', '.join(host) or 'none'}; device buffers: {', '.join(device) or 'none'}"
        return EvaluationCoverage(*counts, NO_COUNTERPART, detail)
    if host_missing is not None and device_missing is not None:
        return EvaluationCoverage(
            *counts, BOTH_UNRESOLVED, f"host {host_missing}; device {device_missing}"
        )
    if host_missing is not None:
        return EvaluationCoverage(*counts, HOST_UNRESOLVED, host_missing)
    return EvaluationCoverage(*counts, DEVICE_UNRESOLVED, device_missing)


def refused_by_host(evaluation: Evaluation) -> bool:
    """Every config point was refused by a `raise` or `assert` inside the host class (or an
    in-tree base of it), after the device pool was built (`PointResult.refused_by_host`): the
    code does not build this pair, rather than the audit missing a configuration it accepts."""
    points = evaluation.points
    return evaluation.host is not None and bool(points) and all(p.refused_by_host for p in points)


def pair_location(pair: Pair) -> Location:
    """Where a pair is decided: its call site, else the host class."""
    return pair.site.location if pair.site is not None else pair.host.location


def measure_coverage(
    evaluated: list[tuple[Pair, Evaluation]],
    catalog: PoolCatalog | None,
    settings: Settings,
    files: int,
) -> Coverage:
    """The coverage of an audit, from each pair and its evaluation (pairs sharing one
    evaluation share its counts); `files`: how many files were read, for the notice."""
    by_evaluation: dict[int, EvaluationCoverage] = {}
    pairs = []
    for pair, evaluation in evaluated:
        if id(evaluation) not in by_evaluation:
            by_evaluation[id(evaluation)] = evaluation_coverage(evaluation, settings)
        counted = by_evaluation[id(evaluation)]
        pairs.append(
            PairCoverage(
                pair.host.name,
                pair.device.name,
                pair_location(pair),
                pair.evidence.text(),
                counted.points_total,
                counted.points_feasible,
                counted.points_compared,
                counted.reason,
                counted.detail,
            )
        )
    devices = len(catalog.devices) if catalog is not None else 0
    hosts = len(catalog.hosts) if catalog is not None else 0
    notice = nothing_audited(devices, hosts, len(pairs), settings, files)
    skipped = catalog.not_devices if catalog is not None else []
    if notice is not None and skipped:
        named = ", ".join(f"{cls.name} (per layer over {paths})" for cls, paths in skipped[:3])
        more = f" and {len(skipped) - 3} more" if len(skipped) > 3 else ""
        notice += (
            f"; {len(skipped)} class{'es' if len(skipped) != 1 else ''} not audited: {named}{more}, "
            "counts read off an object are not followed yet (--show-pairs)"
        )
    unpaired = tuple(
        (cls.name, cls.location, why) for cls, why in (catalog.unpaired if catalog else [])
    )
    by_device = tuple(
        (cls.name, cls.location, why) for cls, why in (getattr(catalog, "by_device", None) or [])
    )
    return Coverage(tuple(pairs), devices, hosts, notice, unpaired, by_device)


def _names(values: list[str]) -> str:
    return ", ".join(values) or "none configured"


def nothing_audited(
    devices: int, hosts: int, pairs: int, settings: Settings, files: int
) -> str | None:
    """What the audit looked for and how to configure it, when it found no device pool or no
    pair (as ruff warns "No Python files found"); None when there is a pair to compare. Says
    nothing when no file was read: that is a missing-files problem, not a naming one."""
    if pairs or not files:
        return None
    where = f"in {files} file{'s' if files != 1 else ''}"
    if not devices:
        return (
            f"no device pool found {where}: a device pool is a class whose __init__ takes a "
            f"token count ({_names(settings.token_params)}) and a layer count "
            f"({_names(settings.layer_params)}); if yours are named otherwise, set `tokens` and "
            "`layers` in [tool.layout-audit.parameters]"
        )
    found = f"{devices} device pool{'s' if devices != 1 else ''}"
    if not hosts:
        return (
            f"no host pool found {where} ({found}, nothing to compare them with): a host pool "
            f"is a class whose __init__ takes a device pool ({_names(settings.device_pool_params)}) "
            f"or a record of its buffers ({_names(settings.buffer_info_params)}) and allocates a "
            "buffer of a device pool's name; set `device-pool` (or `buffer-info`) in "
            "[tool.layout-audit.parameters], or `buffer-map` for buffers named otherwise"
        )
    return (
        f"no host/device pair found {where} ({found}, {hosts} host pool"
        f"{'s' if hosts != 1 else ''}): no construction site, declaration or annotation says "
        "which device pools the hosts mirror (--show-pairs, --show-unresolved say why); pair "
        "them in [tool.layout-audit.pairs]"
    )
