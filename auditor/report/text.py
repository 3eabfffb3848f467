"""Text output, like ruff: `path:line:col: CODE message`, a summary line on stderr."""

from __future__ import annotations

from typing import TextIO

from auditor.interpret.environment import merge_unset
from auditor.report.dimensions import describe, describe_platform, model_dimensions, platform
from auditor.result import AuditResult

# Pairing evidence past this many characters is cut in text (JSON and --show-pairs have it
# whole): listing every call site and guard made lines of 700-900 characters.
PAIRING_WIDTH = 160


def shorten(text: str, width: int = PAIRING_WIDTH) -> str:
    if len(text) <= width:
        return text
    return text[: width - 1].rstrip() + "… (whole in --output-format json)"


def render(result: AuditResult, out: TextIO, err: TextIO, show_unresolved: bool = False) -> None:
    hinted: set[str] = set()  # the first finding of each code says where its explanation is
    for error in result.errors:
        out.write(f"{error.path}:{error.line}:{error.column}: E902 {error.message}\n")
        _hint("E902", hinted, out)
    for finding in result.findings:
        location = finding.location
        out.write(
            f"{location.path}:{location.line}:{location.column}: {finding.code} {finding.message}\n"
        )
        dimensions = model_dimensions(result, finding)
        if dimensions:
            out.write(f"  model dimensions: {describe(dimensions)}\n")
        on = platform(result, finding)
        if on is not None:
            out.write(f"  platform: {describe_platform(on)}\n")
        if finding.device is not None:
            device = finding.device.location
            out.write(
                f"  {finding.device.role} side: {device.path}:{device.line}:{device.column}\n"
            )
        if finding.pairing:
            out.write(f"  pairing: {shorten(finding.pairing)}\n")
        _hint(finding.code, hinted, out)
    if show_unresolved:
        render_unresolved(result, out)
    summary(result, err)


def _hint(code: str, hinted: set[str], out: TextIO) -> None:
    if code not in hinted:
        hinted.add(code)
        out.write(f"  help: layout-audit --explain {code}\n")


def render_pairs(result: AuditResult, out: TextIO) -> None:
    """`--show-pairs`: each host with the devices it receives and why (the evidence)."""
    catalog = result.catalog
    if catalog is None or not catalog.pairs and not catalog.left_out():
        out.write("pairs: none\n")
        return
    out.write(f"pairs ({len(catalog.pairs)}):\n")
    assumed = assumed_by_pair(result)
    for pair in catalog.pairs:
        out.write(f"  {pair.host.name} <- {pair.device.name}: {pair.evidence.text()}\n")
        for note in assumed.get(pair_key(pair.host, pair.device, pair.site), []):
            out.write(f"    assumed: {note}\n")
    for label, cls, why in catalog.left_out():
        location = cls.location
        out.write(f"  {label}: {cls.name} ({location.path}:{location.line}): {why}\n")


def pair_key(host, device, site) -> tuple:
    where = site.where() if site is not None else None
    return (host.qualname, device.qualname, where)


def assumed_by_pair(result: AuditResult) -> dict[tuple, list[str]]:
    """What each pair's comparison took for granted (undecided tests taken toward its call,
    a constructor assumed to accept), from its evaluation's feasible points."""
    found: dict[tuple, list[str]] = {}
    for evaluation in result.evaluations:
        if evaluation.host is None:
            continue
        notes = found.setdefault(pair_key(evaluation.host, evaluation.device, evaluation.site), [])
        for point in evaluation.feasible:
            notes.extend(a for a in point.assumed if a not in notes)
    return {key: merge_unset(notes) for key, notes in found.items()}


def render_unresolved(result: AuditResult, out: TextIO) -> None:
    if not result.unresolved:
        out.write("unresolved: nothing\n")
        return
    out.write(f"unresolved ({len(result.unresolved)}):\n")
    for item in result.unresolved:
        where = str(item.unknown.location) if item.unknown.location else "?"
        out.write(f"  {where}: {item.subject}: {item.unknown.reason}\n")


def notice(result: AuditResult, err: TextIO) -> None:
    """When no pool or no pair was found: what was looked for and how to configure it, as
    ruff warns "No Python files found" (every output format)."""
    if result.coverage.notice:
        err.write(f"layout-audit: warning: {result.coverage.notice}\n")


def summary(result: AuditResult, err: TextIO) -> None:
    catalog = result.catalog
    pools = (
        f"{len(catalog.devices)} device pools, {len(catalog.hosts)} host pools, "
        f"{len(catalog.pairs)} pairs"
        if catalog
        else "no pools"
    )
    found = len(result.findings)
    parts = [
        f"Found {found} finding{'s' if found != 1 else ''}",
        f"{result.files_read} files",
        pools,
        *([compared] if (compared := result.coverage.line()) else []),
        f"{result.points_evaluated} config points",
        f"{len(result.unresolved)} unresolved",
    ]
    if result.errors:
        parts.append(f"{len(result.errors)} files with errors")
    for outcome in reversed(result.stages):  # an engine's own stage (vLLM: spec classes, sites)
        if outcome.summary:
            parts.insert(3, outcome.summary)
    err.write(" · ".join(parts) + f" ({result.seconds:.2f}s)\n")
