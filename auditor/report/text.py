"""Text output, like ruff: `path:line:col: CODE message`, a summary line on stderr."""

from __future__ import annotations

from typing import TextIO

from auditor.pipeline import AuditResult


def render(result: AuditResult, out: TextIO, err: TextIO, show_unresolved: bool = False) -> None:
    for error in result.errors:
        out.write(f"{error.path}:{error.line}:{error.column}: E902 {error.message}\n")
    for finding in result.findings:
        location = finding.location
        out.write(
            f"{location.path}:{location.line}:{location.column}: {finding.code} {finding.message}\n"
        )
        if finding.device is not None:
            device = finding.device.location
            out.write(f"  device side: {device.path}:{device.line}:{device.column}\n")
        if finding.pairing:
            out.write(f"  pairing: {finding.pairing}\n")
    if show_unresolved:
        render_unresolved(result, out)
    summary(result, err)


def render_pairs(result: AuditResult, out: TextIO) -> None:
    """`--show-pairs`: each host with the devices it receives and why (the evidence)."""
    catalog = result.catalog
    if catalog is None or not (catalog.pairs or catalog.not_hosts):
        out.write("pairs: none\n")
        return
    out.write(f"pairs ({len(catalog.pairs)}):\n")
    assumed = assumed_by_pair(result)
    for pair in catalog.pairs:
        out.write(f"  {pair.host.name} <- {pair.device.name}: {pair.evidence}\n")
        for note in assumed.get(pair_key(pair.host, pair.device, pair.site), []):
            out.write(f"    assumed: {note}\n")
    for cls, why in catalog.not_hosts:
        location = cls.location
        out.write(f"  not a host pool: {cls.name} ({location.path}:{location.line}): {why}\n")


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
    return found


def render_unresolved(result: AuditResult, out: TextIO) -> None:
    if not result.unresolved:
        out.write("unresolved: nothing\n")
        return
    out.write(f"unresolved ({len(result.unresolved)}):\n")
    for item in result.unresolved:
        where = str(item.unknown.location) if item.unknown.location else "?"
        out.write(f"  {where}: {item.subject}: {item.unknown.reason}\n")


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
        f"{result.points_evaluated} config points",
        f"{len(result.unresolved)} unresolved",
    ]
    if result.errors:
        parts.append(f"{len(result.errors)} files with errors")
    err.write(" · ".join(parts) + f" ({result.seconds:.2f}s)\n")
