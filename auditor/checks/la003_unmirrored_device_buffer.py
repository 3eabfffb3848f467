"""LA003: a device buffer holding per-token state that no host mirror of the pool copies."""

from __future__ import annotations

import weakref
from dataclasses import dataclass

import libcst as cst

from auditor.checks.base import EXAMPLE_DEVICE, Check, CheckContext, Scope
from auditor.checks.findings import Facts, Finding, Side
from auditor.checks.wording import comparisons, size_text, where
from auditor.evaluation.evaluate import Evaluation, assumed_text, demanded_text
from auditor.evaluation.matrix import apart_from_pack, json_value
from auditor.frontend.index import ClassInfo
from auditor.pairing.declared import is_declared
from auditor.settings import Settings

CODE = "LA003"
NAME = "unmirrored-device-buffer"
SUMMARY = "Device buffer with per-token state has no host counterpart"
EXPLANATION = """\
## What it finds
A device (GPU) pool buffer that holds bytes for every token (a scale buffer, an index buffer),
in a pool whose host (CPU) mirrors copy its other buffers, when none of those mirrors (paired by
annotation or configuration, or declared by `host_pool_decls()`) has a counterpart for it, by
name or `buffer-map`. Only buffers measured at a config point where the host is built are
considered; one host mirroring the buffer is enough to stay silent, and so is a host class that
names the buffer anywhere (`self.<buffer>`, `device_pool.<buffer>`: it mirrors it under another
layout or flag). One exception: a host that copies the buffer at some config points and
lacks it at another where the device holds it is reported at those points (the two sides decide
the buffer by different conditions: a flag honoured on one side only, or two flags). Another:
a host that allocates the buffer only under a flag of its own (`if quantized: self.scales =
...`) which the code building it, run to its call, does not pass (`Shadow.mirror_of(pool)`
leaving `quantized` at its default) is reported where the device holds it. A declared
host layout, which mirrors chosen buffers only, never makes the others count as missing. A point where some device buffer is unresolved is skipped: that
buffer may be the same storage (an alias or a view).

## Why it matters
HiCache backs up and loads a token's state buffer by buffer. Bytes with no host counterpart are
never written back: after an eviction and reload the token comes back with its keys but with
stale scales or index keys left by another token, and attention silently reads garbage.

## Example
    # device: fp4 keys plus per-block scales
    self.k_buffer = [torch.zeros((n, heads, dim // 2), dtype=torch.uint8) ...]
    self.k_scale_buffer = [torch.zeros((n, heads, dim // 16), dtype=torch.uint8) ...]
    # host: mirrors k_buffer and v_buffer only

## Use instead
Give the host mirror a buffer for the state (or declare it as a host pool of its own), or reject
the combination where the host pool is built.
"""


@dataclass(frozen=True)
class UnmirroredBuffer(Facts):
    """A device buffer holding per-token bytes that none of the pool's host mirrors copies."""

    buffer: str
    device_class: str
    size: tuple[int | None, int]  # bytes per token per layer, per token
    arithmetic: str
    hosts: tuple[str, ...]  # the host classes that mirror the pool (sorted, once each)
    mirrors: int  # how many pairs mirror it
    copied: tuple[str, ...]  # the device buffers they copy (sorted)
    where: str  # the config points where it shows (wording.where), on the first pair
    matching: int  # how many config points it shows at, over every mirror
    feasible: int  # of how many the mirrors reach
    free: tuple[str, ...]  # free parameters it holds for any value of
    demanded: str  # evaluate.demanded_text
    assumed: str  # evaluate.assumed_text
    # the hosts hold it at other config points: not at these (a flag honoured on one side)
    elsewhere: bool = False
    # the host allocates it behind this flag of its own, which the code building it leaves
    # at its default (`Mirror.mirror_of(pool)` never passing `quantized`)
    unpassed: str = ""

    def holds_for_any(self) -> tuple[str, ...]:
        return self.free

    def sentence(self) -> str:
        name = self.buffer
        verb = "mirrors" if self.mirrors == 1 else "mirror"
        if self.unpassed:
            return (
                f"{name}: device {self.device_class}.{name} holds {size_text(*self.size)} that "
                f"{', '.join(self.hosts)} allocates only when its {self.unpassed} is set, and "
                f"the code building it does not pass {self.unpassed} (its default stands): "
                f"{self.arithmetic}; at {self.where} ({self.matching} of {self.feasible} config "
                "points)"
                + (f"; holds for any {', '.join(self.free)}" if self.free else "")
                + self.demanded
                + self.assumed
            )
        if self.elsewhere:
            return (
                f"{name}: device {self.device_class}.{name} holds {size_text(*self.size)} that "
                f"{', '.join(self.hosts)} copies at other config points but not at these: "
                f"{self.arithmetic}; the two sides decide the buffer by different conditions; "
                f"at {self.where} ({self.matching} of {self.feasible} config points)"
                + (f"; holds for any {', '.join(self.free)}" if self.free else "")
                + self.demanded
                + self.assumed
            )
        return (
            f"{name}: device {self.device_class}.{name} holds {size_text(*self.size)} that no "
            f"host mirror copies: {self.arithmetic}; {', '.join(self.hosts)} {verb} "
            f"{', '.join(self.copied)} only; at {self.where} ({self.matching} of {self.feasible} "
            "config points)"
            + (f"; holds for any {', '.join(self.free)}" if self.free else "")
            + self.demanded
            + self.assumed
        )


def check_device(evaluations: list[Evaluation], settings: Settings) -> list[Finding]:
    """Findings for the device pools of `evaluations`, across all the hosts paired with each."""
    by_device: dict[int, list[Evaluation]] = {}
    for evaluation in evaluations:
        if evaluation.host is not None:
            by_device.setdefault(id(evaluation.device), []).append(evaluation)
    findings: list[Finding] = []
    for group in by_device.values():
        findings.extend(_check_one(group, settings))
    return findings


def _host_mentions(host: ClassInfo, device_params: tuple[str, ...]) -> set[str]:
    """Attributes the host's classes set on themselves or read off their device pool (under a
    configured device-pool parameter name), on any path: a buffer the host mirrors under
    another layout or flag is not a missing mirror."""
    memo = _MENTIONS.setdefault(host, {})
    if device_params not in memo:
        memo[device_params] = _scan_mentions(host, ("self", *device_params))
    return memo[device_params]


_MENTIONS: weakref.WeakKeyDictionary[ClassInfo, dict] = weakref.WeakKeyDictionary()


def _scan_mentions(host: ClassInfo, owners: tuple[str, ...]) -> set[str]:
    names: set[str] = set()
    for klass in host.mro():
        for node in _walk(klass.node.body):
            if isinstance(node, cst.Attribute) and isinstance(
                node.value, (cst.Name, cst.Attribute)
            ):
                owner = (
                    node.value.value if isinstance(node.value, cst.Name) else node.value.attr.value
                )
                if owner in owners:
                    names.add(node.attr.value)
    return names


def _walk(node: cst.CSTNode):
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(current.children)


def _mirrored_names(evaluation: Evaluation, settings: Settings) -> set[str]:
    names: set[str] = set()
    for point in evaluation.feasible:
        for _, _, counterpart in comparisons(point.host, point.device, settings):
            if counterpart is not None:
                names.update(counterpart.name.split(" + "))
    return names


def _missing_at_points(
    mirrors: list[Evaluation], mirrored_by: dict, never: set[str], settings: Settings
) -> dict[str, list]:
    """Buffers a host copies at some config points and lacks at others where the device
    holds them, per pair: the host decides the buffer by another condition than the device
    (`if st.get("fp8_scales")` against the device's `if st["per_token_scales"]`)."""
    found: dict[str, list] = {}
    for evaluation in mirrors:
        for point in evaluation.feasible:
            if not point.host or not all(f.resolved for f in point.device.values()):
                continue
            here: set[str] = set()
            for _, _, counterpart in comparisons(point.host, point.device, settings):
                if counterpart is not None:
                    here.update(counterpart.name.split(" + "))
            for name, figure in point.device.items():
                if name in never or name in here or name not in mirrored_by[id(evaluation)]:
                    continue
                if figure.resolved and (figure.bytes_per_token_per_layer or figure.bytes_per_token):
                    found.setdefault(name, []).append((evaluation, point, figure))
    return found


def _left_at_default(
    mirrors: list[Evaluation], measured: set[str], taken: set[str]
) -> dict[str, tuple[str, list]]:
    """Buffers no host holds at any point, that a host allocates only under a flag of its own
    (`if quantized: self.scales = ...`) which the code building it, run to its call, does not
    pass, at the points where the device holds them: buffer -> (flag, cases). The host names
    the buffer, so it is not missing by name; the call leaves it out."""
    found: dict[str, tuple[str, list]] = {}
    for evaluation in mirrors:
        for point in evaluation.feasible:
            if point.passed is None or not all(f.resolved for f in point.device.values()):
                continue
            for name, figure in point.device.items():
                if name in measured or name in taken or name in point.host:
                    continue
                if not (figure.bytes_per_token_per_layer or figure.bytes_per_token):
                    continue
                flag = _gating_flag(evaluation.host, name)
                if flag is not None and flag not in point.passed:
                    found.setdefault(name, (flag, []))[1].append((evaluation, point, figure))
    return found


def _gating_flag(host: ClassInfo, buffer: str) -> str | None:
    """The constructor parameter an `if` of the host's `__init__` tests (`if quantized:`, `if
    self.quantized:`) around the only assignment of an allocation to `self.<buffer>`; None
    when there is no such one flag."""
    init = host.find_method("__init__")
    if init is None:
        return None
    params = {p.name.value for p in init.node.params.params[1:]}
    params |= {p.name.value for p in init.node.params.kwonly_params}
    flags = set()
    for node in _walk(init.node.body):
        if not isinstance(node, cst.If):
            continue
        tested = {
            part.value if isinstance(part, cst.Name) else part.attr.value
            for part in _walk(node.test)
            if isinstance(part, cst.Name)
            or (
                isinstance(part, cst.Attribute)
                and isinstance(part.value, cst.Name)
                and part.value.value == "self"
            )
        } & params
        if len(tested) != 1:
            continue
        for inner in _walk(node.body):
            if isinstance(inner, cst.Assign) and any(
                isinstance(t.target, cst.Attribute)
                and isinstance(t.target.value, cst.Name)
                and t.target.value.value == "self"
                and t.target.attr.value == buffer
                for t in inner.targets
            ):
                if isinstance(inner.value, cst.Call):
                    flags |= tested
    return next(iter(flags)) if len(flags) == 1 else None


def _where(evaluation: Evaluation, points: list) -> str:
    """The config points of one pair where the buffer goes unmirrored, as a condition."""
    varied = evaluation.varied
    every = [{n: p.values[n] for n in varied} for p in evaluation.feasible]
    return where(every, [{n: p.values[n] for n in varied} for p in points], varied)


def _check_one(group: list[Evaluation], settings: Settings) -> list[Finding]:
    mirrored_by = {id(e): _mirrored_names(e, settings) for e in group}
    measured = set().union(*mirrored_by.values())
    mirrored = set(measured)
    for evaluation in group:
        mirrored |= _host_mentions(evaluation.host, tuple(settings.device_pool_params))
    # a declared host layout mirrors chosen buffers only: it never says the rest are missing
    mirrors = [e for e in group if mirrored_by[id(e)] and not is_declared(e)]
    if not mirrors:
        return []
    cases: dict[str, list] = {}
    for evaluation in mirrors:
        for point in evaluation.feasible:
            if not all(f.resolved for f in point.device.values()):
                continue  # an unresolved buffer may be the same storage (an alias, a view)
            for name, figure in point.device.items():
                if name in mirrored or not figure.resolved:
                    continue
                if figure.bytes_per_token_per_layer or figure.bytes_per_token:
                    cases.setdefault(name, []).append((evaluation, point, figure))
    partial = _missing_at_points(mirrors, mirrored_by, set(cases), settings)
    unpassed = _left_at_default(mirrors, measured, set(cases) | set(partial))
    device = group[0].device
    hosts = tuple(sorted({e.host.name for e in mirrors}))
    findings = []
    every = [(n, f, False) for n, f in cases.items()] + [(n, f, True) for n, f in partial.items()]
    every += [(n, f, False) for n, (_, f) in unpassed.items()]
    for name, found, elsewhere in sorted(every, key=lambda item: (item[2], item[0])):
        named = tuple(sorted({e.host.name for e, _, _ in found})) if elsewhere else hosts
        # the figure shown is the first at the pack's own values: a host class evaluated at
        # values of its own (`[hosts.<Class>]`, other head dims) comes after
        evaluation, point, figure = min(
            found, key=lambda case: apart_from_pack(case[0].host, settings)
        )
        varied = evaluation.varied
        first = {n: json_value(point.values[n]) for n in varied}
        facts = UnmirroredBuffer(
            buffer=name,
            device_class=device.name,
            size=(figure.bytes_per_token_per_layer, figure.bytes_per_token),
            arithmetic=figure.arithmetic,
            hosts=named,
            mirrors=len(mirrors),
            copied=tuple(sorted(measured)),
            where=_where(evaluation, [p for e, p, _ in found if e is evaluation]),
            matching=len(found),
            feasible=sum(len(e.feasible) for e in mirrors),
            free=tuple(evaluation.free),
            demanded=demanded_text(evaluation),
            assumed=assumed_text([p for _, p, _ in found]),
            elsewhere=elsewhere,
            unpassed=unpassed[name][0] if name in unpassed else "",
        )
        findings.append(
            Finding(
                code=CODE,
                facts=facts,
                location=figure.location,
                device=Side(
                    "device",
                    device.name,
                    name,
                    figure.location,
                    figure.bytes_per_token_per_layer or 0,
                    figure.arithmetic,
                ),
                config=first,
                points=tuple(
                    {
                        "config": {n: json_value(p.values[n]) for n in e.varied},
                        "host": e.host.name,
                        "device_bytes_per_token": f.bytes_per_token_per_layer,
                    }
                    for e, p, f in found
                ),
                points_evaluated=sum(len(e.points) for e in mirrors),
                pairing=f"hosts paired with {device.name}: {', '.join(named)}",
            )
        )
    return findings


class UnmirroredDeviceBuffer(Check):
    code, name, summary, explanation = CODE, NAME, SUMMARY, EXPLANATION
    scope = Scope.DEVICES

    valid = (
        {
            "dev.py": EXAMPLE_DEVICE
            + "        self.k_scale_buffer = [torch.zeros((size, 4), dtype=torch.float32) for _ in range(layer_num)]\n",
            "host.py": "import torch\nfrom dev import Dev\n\nclass Host:\n    def __init__(self, device_pool: Dev, size, layer_num):\n        self.k_buffer = [torch.zeros((size, 64), dtype=device_pool.dtype) for _ in range(layer_num)]\n        self.k_scale_buffer = [torch.zeros((size, 4), dtype=torch.float32) for _ in range(layer_num)]\n",
        },
    )
    invalid = (
        {
            "dev.py": EXAMPLE_DEVICE
            + "        self.k_scale_buffer = [torch.zeros((size, 4), dtype=torch.float32) for _ in range(layer_num)]\n",
            "host.py": "import torch\nfrom dev import Dev\n\nclass Host:\n    def __init__(self, device_pool: Dev, size, layer_num):\n        self.k_buffer = [torch.zeros((size, 64), dtype=device_pool.dtype) for _ in range(layer_num)]\n",
        },
    )

    def run(self, context: CheckContext) -> list[Finding]:
        return check_device(context.evaluations, context.settings)
