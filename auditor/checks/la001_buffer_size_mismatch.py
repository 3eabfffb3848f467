"""LA001: a host mirror buffer and its device buffer hold different bytes per token per layer."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from auditor.checks.base import EXAMPLE_DEVICE, Check, CheckContext, Scope
from auditor.checks.findings import Facts, Finding, Side, SiteNote
from auditor.checks.wording import comparisons, size_text, where
from auditor.evaluation.evaluate import Evaluation, PointResult, assumed_text, demanded_text
from auditor.evaluation.matrix import json_value
from auditor.evaluation.measure import BufferFigure
from auditor.pairing.evidence import SIBLING
from auditor.settings import Settings

if TYPE_CHECKING:
    from auditor.pairing.catalog import Pair

CODE = "LA001"
NAME = "host-device-buffer-size-mismatch"
SUMMARY = "Host mirror buffer and device buffer disagree on bytes per token per layer"
EXPLANATION = """\
## What it finds
A buffer that a host (CPU) pool mirrors from a device (GPU) pool, paired by attribute name
(or by the rule pack's `buffer-map`, or as each side's one storage when the host shares no name
with the device), whose bytes per token per layer differ at some config
point the code can reach. Both sides are computed from the pools' own formulas and dtypes, with
real torch dtype sizes, across the rule pack's config matrix. A host is compared with the device
pools its construction sites can receive (isinstance guards, declared types), built with each
site's own arguments; when one site disagrees where another site of the same classes agrees,
the finding is at that call and names the argument that makes the difference.

## Why it matters
Copies between the pools (HiCache load/backup, disaggregated transfer) move bytes, not values:
when the sizes disagree, nothing crashes; copies truncate or overrun and the model reads
garbage. In the incident behind this tool, a DeepSeek index-K buffer was switched to bf16 on the
device (128 x 2 = 256 B/token) while the host mirror kept the fp8 layout (132 B/token); tool
calls came out garbled under load and the cause took months to find.

## Example
    # device
    if index_k_dtype == torch.bfloat16:
        row, dtype = index_head_dim, torch.bfloat16              # 256 B/token/layer
    # host
    index_k_with_scale_buffer_dtype = torch.uint8
    row = index_head_dim + index_head_dim // quant_block_size * 4  # 132 B/token/layer

## Use instead
Derive the host layout from the device pool it mirrors (read its dtype and row size from
`device_pool`), instead of restating a formula or a class-default dtype.
"""


@dataclass(frozen=True)
class SizeDisagreement(Facts):
    """One host buffer and its device counterpart disagreeing, at the points of one pair."""

    buffer: str
    host_class: str
    host_size: tuple[int | None, int]  # bytes per token per layer, per token
    host_arithmetic: str
    device_class: str
    device_buffer: str  # the device buffer, or the `buffer-map` parts joined with " + "
    device_size: tuple[int | None, int]
    device_arithmetic: str
    where: str  # the config points where it shows (wording.where)
    matching: int  # how many config points it shows at
    feasible: int  # of how many the pair reaches
    varies: bool  # the figures differ between those points
    free: tuple[str, ...]  # free parameters it holds for any value of
    demanded: str  # evaluate.demanded_text
    assumed: str  # evaluate.assumed_text
    # two device pools built side by side (siblings.py): no host, two sides
    siblings: bool = False

    def holds_for_any(self) -> tuple[str, ...]:
        return self.free

    def sentence(self) -> str:
        name = self.buffer
        if self.siblings:
            return (
                f"{name}: the two sides disagree, {size_text(*self.host_size)} vs "
                f"{size_text(*self.device_size)}: {self.host_class}.{name}: "
                f"{self.host_arithmetic}; {self.device_class}.{self.device_buffer} (built "
                f"beside it): {self.device_arithmetic}; at {self.where} ({self.matching} of "
                f"{self.feasible} config points)"
                + ("; figures differ between points" if self.varies else "")
                + (f"; holds for any {', '.join(self.free)}" if self.free else "")
                + self.demanded
                + self.assumed
            )
        return (
            f"{name}: host and device disagree, {size_text(*self.host_size)} vs "
            f"{size_text(*self.device_size)}: host {self.host_class}.{name}: "
            f"{self.host_arithmetic}; device {self.device_class}.{self.device_buffer}: "
            f"{self.device_arithmetic}; at {self.where} ({self.matching} of {self.feasible} config "
            "points)"
            + ("; figures differ between points" if self.varies else "")
            + (f"; holds for any {', '.join(self.free)}" if self.free else "")
            + self.demanded
            + self.assumed
        )


def check(evaluation: Evaluation, settings: Settings) -> list[Finding]:
    if evaluation.host is None:
        return []
    feasible = evaluation.feasible
    disagreements: dict[str, list[tuple[PointResult, BufferFigure, BufferFigure]]] = {}
    for point in feasible:
        for name, host_figure, device_figure in comparisons(point.host, point.device, settings):
            if device_figure is None or not host_figure.resolved or not device_figure.resolved:
                continue
            if not device_figure.bytes_per_token_per_layer and not device_figure.bytes_per_token:
                continue  # a placeholder holding nothing per token: no copy can truncate it
            if not host_figure.same_size(device_figure):
                disagreements.setdefault(name, []).append((point, host_figure, device_figure))
    findings = []
    varied = evaluation.varied
    all_points = [{n: p.values[n] for n in varied} for p in feasible]
    for name, cases in sorted(disagreements.items()):
        point, host_figure, device_figure = cases[0]
        selected = [{n: p.values[n] for n in varied} for p, _, _ in cases]
        host_class, device_class = evaluation.host.name, evaluation.device.name
        facts = SizeDisagreement(
            buffer=name,
            host_class=host_class,
            host_size=(host_figure.bytes_per_token_per_layer, host_figure.bytes_per_token),
            host_arithmetic=host_figure.arithmetic,
            device_class=device_class,
            device_buffer=device_figure.name,
            device_size=(device_figure.bytes_per_token_per_layer, device_figure.bytes_per_token),
            device_arithmetic=device_figure.arithmetic,
            where=where(all_points, selected, varied),
            matching=len(cases),
            feasible=len(feasible),
            varies=any(
                not (h.same_size(host_figure) and d.same_size(device_figure)) for _, h, d in cases
            ),
            free=tuple(
                n
                for n in evaluation.free
                if (name, n) not in evaluation.apart
                and (device_figure.name, n) not in evaluation.apart
            ),
            demanded=demanded_text(evaluation),
            assumed=assumed_text([p for p, _, _ in cases]),
        )
        findings.append(
            Finding(
                code=CODE,
                facts=facts,
                location=host_figure.location,
                host=Side(
                    "host",
                    host_class,
                    name,
                    host_figure.location,
                    host_figure.bytes_per_token_per_layer or 0,
                    host_figure.arithmetic,
                ),
                device=Side(
                    "device",
                    device_class,
                    device_figure.name,
                    device_figure.location,
                    device_figure.bytes_per_token_per_layer or 0,
                    device_figure.arithmetic,
                ),
                config={n: json_value(v) for n, v in selected[0].items()},
                points=tuple(
                    {
                        "config": {n: json_value(p.values[n]) for n in varied},
                        "host_bytes_per_token": h.bytes_per_token_per_layer,
                        "device_bytes_per_token": d.bytes_per_token_per_layer,
                    }
                    for p, h, d in cases
                ),
                points_evaluated=len(evaluation.points),
            )
        )
    return findings


def _agrees(evaluation: Evaluation, buffer: str, configs: list[dict], settings: Settings) -> bool:
    """Does this evaluation's host buffer match its device buffer at every one of `configs`
    (given on the varied dimensions of another evaluation of the same classes)?"""
    matched = 0
    for point in evaluation.feasible:
        if not any(all(point.values.get(n, v) == v for n, v in c.items()) for c in configs):
            continue
        found = [
            (h, d) for n, h, d in comparisons(point.host, point.device, settings) if n == buffer
        ]
        host, device = found[0] if found else (None, None)
        if host is None or device is None or not host.resolved or not device.resolved:
            return False
        if not host.same_size(device):
            return False
        matched += 1
    return matched > 0


def _argument_difference(site, other) -> list[str]:
    """Arguments that `other` passes and `site` does not, or passes written differently."""
    here, there = site.module.parsed, other.module.parsed
    missing, written = [], []
    for name, node in sorted(other.arguments.items()):
        if name == other.device_parameter:
            continue
        if name not in site.arguments:
            missing.append(f"{name} is not passed here (its default applies)")
        elif here.code(site.arguments[name]) != there.code(node):
            written.append(
                f"{name}={here.code(site.arguments[name])} here, "
                f"{name}={there.code(node)} at {other.where()}"
            )
    for name in sorted(set(site.arguments) - set(other.arguments)):
        if name != site.device_parameter:
            missing.append(f"{name} is passed here only")
    return missing or written  # an argument left out explains more than one written otherwise


def check_pairs(evaluated: list[tuple[Pair, Evaluation]], settings: Settings) -> list[Finding]:
    """LA001 over every pair. A disagreement that another call site of the same host and device
    classes does not have comes from the arguments: it is reported at the call site, naming
    them; one every site has comes from the host class and is reported at its formula, once."""
    findings: dict[tuple, Finding] = {}
    for pair, evaluation in evaluated:
        for finding in check(evaluation, settings):
            located = _at_site(pair, evaluation, finding, evaluated, settings)
            # what the message is written from: equal data, one finding
            key = (located.code, located.location, located.facts, located.site_note)
            if key in findings:  # the same disagreement reached through another site
                earlier = findings[key]
                if pair.evidence.text() not in earlier.pairing:
                    sites = earlier.pairing_detail.get("sites", [earlier.pairing_detail])
                    findings[key] = dataclasses.replace(
                        earlier,
                        pairing=f"{earlier.pairing} | {pair.evidence.text()}",
                        pairing_detail={
                            "kind": "call sites",
                            "sites": sites + [pair.evidence.as_json()],
                        },
                    )
            else:
                findings[key] = located
    return list(findings.values())


def _at_site(pair, evaluation, finding, evaluated, settings) -> Finding:
    located = dataclasses.replace(
        finding, pairing=pair.evidence.text(), pairing_detail=pair.evidence.as_json()
    )
    if pair.evidence.kind == SIBLING and isinstance(finding.facts, SizeDisagreement):
        located = dataclasses.replace(
            located, facts=dataclasses.replace(finding.facts, siblings=True)
        )
    site = pair.site
    if site is None or finding.host is None:
        return located
    configs = [p["config"] for p in finding.points]
    configs = [{n: _point_value(evaluation, n, v) for n, v in c.items()} for c in configs]
    for other_pair, other in evaluated:
        if (
            other_pair.site is None
            or other_pair.site is site
            or other_pair.host is not pair.host
            or other_pair.device is not pair.device
            or other is evaluation
        ):
            continue
        if not _agrees(other, finding.host.buffer, configs, settings):
            continue
        passed_here, passed_there = _passed(evaluation), _passed(other)
        if passed_here is not None and passed_there is not None:  # both run to their calls
            differing = _passed_difference(passed_here, passed_there)
            differing = differing or _argument_difference(site, other_pair.site)
        else:
            differing = _argument_difference(site, other_pair.site)
        if not differing:
            continue
        note = SiteNote(other_pair.site.where(), tuple(differing))
        return dataclasses.replace(located, location=site.location, site_note=note)
    return located


def _passed(evaluation: Evaluation) -> frozenset[str] | None:
    """Host parameters the code passed at its call, as the run of its function computed them
    (site_run.py), at the first feasible point; None when the site was read as written."""
    for point in evaluation.feasible:
        if point.passed is not None:
            return frozenset(point.passed)
    return None


def _passed_difference(here: frozenset[str], there: frozenset[str]) -> list[str]:
    found = [f"{name} is not passed here (its default applies)" for name in sorted(there - here)]
    return found + [f"{name} is passed here only" for name in sorted(here - there)]


def _point_value(evaluation: Evaluation, name: str, shown: Any) -> Any:
    """The config value (a torch dtype, say) that a finding shows as `shown` (its JSON form)."""
    for point in evaluation.points:
        value = point.values.get(name)
        if json_value(value) == shown:
            return value
    return shown


class BufferSizeMismatch(Check):
    code, name, summary, explanation = CODE, NAME, SUMMARY, EXPLANATION
    scope = Scope.PAIRS

    valid = (
        {
            "dev.py": EXAMPLE_DEVICE,
            "host.py": "import torch\nfrom dev import Dev\n\nclass Host:\n    def __init__(self, device_pool: Dev, size, layer_num):\n        self.k_buffer = [torch.zeros((size, 64), dtype=device_pool.dtype) for _ in range(layer_num)]\n",
        },
    )
    invalid = (
        {
            "dev.py": EXAMPLE_DEVICE,
            "host.py": "import torch\nfrom dev import Dev\n\nclass Host:\n    def __init__(self, device_pool: Dev, size, layer_num):\n        self.k_buffer = [torch.zeros((size, 64), dtype=torch.bfloat16) for _ in range(layer_num)]\n",
        },
    )

    def run(self, context: CheckContext) -> list[Finding]:
        return check_pairs(context.evaluated, context.settings)
