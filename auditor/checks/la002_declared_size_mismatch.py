"""LA002: a host pool's own size per token disagrees with what the device pool holds."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from auditor.checks.base import EXAMPLE_DEVICE, Check, CheckContext, Scope
from auditor.checks.findings import Facts, Finding, Side
from auditor.checks.wording import device_counterpart, size_text, where
from auditor.evaluation.evaluate import Evaluation, PointResult, assumed_text
from auditor.evaluation.matrix import json_value
from auditor.evaluation.measure import BufferFigure
from auditor.pairing.catalog import Pair
from auditor.settings import Settings

CODE = "LA002"
NAME = "host-declared-size-mismatch"
SUMMARY = "Host pool's size per token disagrees with the device buffers it mirrors"
EXPLANATION = """\
## What it finds
A host (CPU) pool whose own figure of bytes per token (its `size_per_token` attribute, which
SGLang hosts set from `get_size_per_token()`) differs from the bytes per token the paired device pool holds in
the buffers that host mirrors (the device counterparts of the host's buffers, by name or
`buffer-map`, summed), counted per layer on both sides, at a config point the code can reach.
It is reported only where the figure also differs from the host's own mirror buffers: where the
host's buffers are sized from the same wrong figure, LA001 already reports them.

## Why it matters
HiCache sizes the host pool from this figure (`size = host_size // size_per_token`) and uses it
for transfer strides and memory accounting. A figure that leaves out a buffer (an index-K cache
added to the device pool later) or uses another dtype makes the host pool hold fewer or more
tokens than planned, or copy with the wrong stride, even when each buffer is right.

## Example
    # device: kv_buffer 576 B + index_k_with_scale_buffer 132 B per token per layer
    # host mirrors both buffers, but
    def get_size_per_token(self):
        return (self.kv_lora_rank + self.qk_rope_head_dim) * self.dtype.itemsize * self.layer_num

## Use instead
Compute the figure from the buffers the host allocates (or from the device pool's own
buffers), so every buffer added on one side is counted on the other.
"""


@dataclass(frozen=True)
class ClaimDisagreement(Facts):
    """A host pool's own size per token against the device buffers it mirrors, at the points
    of one pair."""

    host_class: str
    claim: str  # the host's attribute holding the figure (`size_per_token`)
    claimed: tuple[int, int]  # bytes per token per layer, per token
    claim_arithmetic: str
    device_class: str
    device_parts: tuple[tuple[str, int | None], ...]  # each mirrored device buffer, per layer
    held: tuple[int, int]
    where: str  # the config points where it shows (wording.where)
    matching: int  # how many config points it shows at
    feasible: int  # of how many the pair reaches
    assumed: str  # evaluate.assumed_text

    def device_sum(self) -> str:
        return " + ".join(f"{name} {size}" for name, size in self.device_parts)

    def sentence(self) -> str:
        host_class = self.host_class
        return (
            f"size per token: host {host_class} counts {size_text(*self.claimed)}, the device "
            f"buffers it mirrors hold {size_text(*self.held)}: host {host_class}.{self.claim}: "
            f"{self.claim_arithmetic}; device {self.device_class}: {self.device_sum()} = "
            f"{self.held[0]} B/token/layer; at {self.where} ({self.matching} of {self.feasible} "
            f"config points){self.assumed}"
        )


def _mirrored(
    point: PointResult, settings: Settings
) -> tuple[list[BufferFigure], list[BufferFigure]] | None:
    """(host buffers, their device counterparts), or None when some figure is not known."""
    hosts, devices = [], {}
    pairs = []
    for name, host_figure in sorted(point.host.items()):
        device_figure = device_counterpart(name, point.device, settings, point.host)
        if device_figure is None:
            if not host_figure.resolved or host_figure.bytes_per_token_per_layer:
                return None  # the host holds per-layer bytes of its own: cannot tell
            continue
        if not device_figure.resolved:
            return None
        pairs.append((host_figure, device_figure))
    # widest first, so `kv_buffer` counts rather than its views `k_buffer` and `v_buffer`
    pairs.sort(key=lambda pair: -len(pair[1].name.split(" + ")))
    for host_figure, device_figure in pairs:
        # each device buffer counts once, however many host views mirror it (`kv_buffer` and
        # its halves `k_buffer`, `v_buffer`): a host buffer mirroring counted ones is a view
        parts = device_figure.name.split(" + ")
        if not any(part in devices for part in parts):
            hosts.append(host_figure)
        for part in parts:
            devices[part] = point.device[part]
    return (hosts, [devices[n] for n in sorted(devices)]) if devices else None


def _total(figures: list[BufferFigure]) -> tuple[int, int] | None:
    if not all(f.resolved for f in figures):
        return None
    return (
        sum(f.bytes_per_token_per_layer or 0 for f in figures),
        sum(f.bytes_per_token for f in figures),
    )


def check(evaluation: Evaluation, settings: Settings) -> list[Finding]:
    if evaluation.host is None:
        return []
    feasible = evaluation.feasible
    cases = []
    for point in feasible:
        claim = point.host_claim
        mirrored = _mirrored(point, settings)
        if claim is None or not claim.resolved or mirrored is None:
            continue
        hosts, devices = mirrored
        claimed = (claim.bytes_per_token_per_layer or 0, claim.bytes_per_token)
        held = _total(devices)
        if held is None or claimed == held or claimed == _total(hosts):
            continue
        if held == (0, 0):  # the device keeps nothing per token (a placeholder pool)
            continue
        cases.append((point, claim, devices, claimed, held))
    if not cases:
        return []
    varied = evaluation.varied
    point, claim, devices, claimed, held = cases[0]
    selected = [{n: p.values[n] for n in varied} for p, *_ in cases]
    host_class, device_class = evaluation.host.name, evaluation.device.name
    facts = ClaimDisagreement(
        host_class=host_class,
        claim=claim.name,
        claimed=claimed,
        claim_arithmetic=claim.arithmetic,
        device_class=device_class,
        device_parts=tuple((d.name, d.bytes_per_token_per_layer) for d in devices),
        held=held,
        where=where([{n: p.values[n] for n in varied} for p in feasible], selected, varied),
        matching=len(cases),
        feasible=len(feasible),
        assumed=assumed_text([p for p, *_ in cases]),
    )
    device_names = " + ".join(d.name for d in devices)
    return [
        Finding(
            code=CODE,
            facts=facts,
            location=claim.location,
            host=Side("host", host_class, claim.name, claim.location, claimed[0], claim.arithmetic),
            device=Side(
                "device",
                device_class,
                device_names,
                devices[0].location,
                held[0],
                f"{facts.device_sum()} = {held[0]} B/token/layer",
            ),
            config={n: json_value(v) for n, v in selected[0].items()},
            points=tuple(
                {
                    "config": {n: json_value(p.values[n]) for n in varied},
                    "host_bytes_per_token": c[0],
                    "device_bytes_per_token": h[0],
                }
                for p, _, _, c, h in cases
            ),
            points_evaluated=len(evaluation.points),
        )
    ]


def check_pairs(evaluated: list[tuple[Pair, Evaluation]], settings: Settings) -> list[Finding]:
    """LA002 over every pair: the same figure reached through several pairs (call sites of the
    same classes) is reported once, with each pair's evidence."""
    findings: dict[tuple, Finding] = {}
    for pair, evaluation in evaluated:
        for finding in check(evaluation, settings):
            key = (finding.code, finding.location, finding.facts)  # what the message says
            if key not in findings:
                findings[key] = dataclasses.replace(finding, pairing=pair.evidence.text())
            elif pair.evidence.text() not in findings[key].pairing:
                earlier = findings[key]
                findings[key] = dataclasses.replace(
                    earlier, pairing=f"{earlier.pairing} | {pair.evidence.text()}"
                )
    return list(findings.values())


class DeclaredSizeMismatch(Check):
    code, name, summary, explanation = CODE, NAME, SUMMARY, EXPLANATION
    scope = Scope.PAIRS

    valid = (
        {
            "dev.py": EXAMPLE_DEVICE,
            "host.py": "import torch\nfrom dev import Dev\n\nclass Host:\n    def __init__(self, device_pool: Dev, size, layer_num):\n        self.k_buffer = [torch.zeros((size, 64), dtype=device_pool.dtype) for _ in range(layer_num)]\n        self.size_per_token = 64 * device_pool.dtype.itemsize * layer_num\n",
        },
    )
    invalid = (
        {
            "dev.py": EXAMPLE_DEVICE,
            "host.py": "import torch\nfrom dev import Dev\n\nclass Host:\n    def __init__(self, device_pool: Dev, size, layer_num):\n        self.k_buffer = [torch.zeros((size, 64), dtype=device_pool.dtype) for _ in range(layer_num)]\n        self.size_per_token = 64 * layer_num\n",
        },
    )

    def run(self, context: CheckContext) -> list[Finding]:
        return check_pairs(context.evaluated, context.settings)
