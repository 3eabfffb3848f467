"""The layout table: per host/device pair, config points x host buffers, both sizes per cell.

`build` turns an AuditResult into grids (rows: the feasible config points, labelled by the
varied dimensions; columns: the host pool's buffers; a cell: host and device bytes per token per
layer, flagged when they differ, as LA001 compares them). `render_text` prints them with aligned
columns; `render_html` writes one self-contained page (inline CSS, no scripts, no external
assets).
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any, TextIO

from auditor.checks.wording import device_counterpart
from auditor.coverage import VIEW, EvaluationCoverage, evaluation_coverage
from auditor.evaluation.matrix import describe_value
from auditor.evaluation.measure import BufferFigure
from auditor.result import AuditResult
from auditor.settings import Settings

NO_DEVICE = "no device buffer of this name (nor a buffer-map entry)"
ABSENT = "the host pool has no such buffer at this config point"


def _figure_text(figure: BufferFigure | None) -> str:
    if figure is None:
        return "-"
    if not figure.resolved:
        return "?"
    text = str(figure.bytes_per_token_per_layer)
    if figure.bytes_per_token:
        text += f"+{figure.bytes_per_token}/tok"
    if figure.per_slot:  # bytes per slot of `size * ratio` (evaluation/slots.py)
        text += "/slot"
    return text


def _figure_detail(figure: BufferFigure | None, missing: str) -> str:
    if figure is None:
        return missing
    if not figure.resolved:
        return f"unresolved: {figure.unknown.reason}"
    return figure.arithmetic or figure.size_text()


@dataclass(frozen=True)
class Cell:
    """One host buffer at one config point, and the device buffer(s) it mirrors."""

    host: BufferFigure | None  # None: the host has no such buffer at this point
    device: BufferFigure | None  # None: nothing on the device side to compare with

    @property
    def host_text(self) -> str:
        return _figure_text(self.host)

    @property
    def device_text(self) -> str:
        return _figure_text(self.device)

    @property
    def mismatch(self) -> bool:
        return (
            self.host is not None
            and self.device is not None
            and self.host.resolved
            and self.device.resolved
            and not self.host.same_size(self.device)
        )

    @property
    def unresolved(self) -> bool:
        return any(f is not None and not f.resolved for f in (self.host, self.device))

    @property
    def reasons(self) -> list[str]:
        """Why a side could not be evaluated, as `side: reason`."""
        return [
            f"{side}: {figure.unknown.reason}"
            for side, figure in (("host", self.host), ("device", self.device))
            if figure is not None and not figure.resolved
        ]

    @property
    def detail(self) -> str:
        """Both sides' arithmetic (or why it is missing), one line each."""
        device_name = f" ({self.device.name})" if self.device is not None else ""
        return (
            f"host: {_figure_detail(self.host, ABSENT)}\n"
            f"device{device_name}: {_figure_detail(self.device, NO_DEVICE)}"
        )


@dataclass
class Row:
    values: dict[str, Any]  # varied dimension -> value (torch dtypes as torch.dtype)
    labels: list[str]  # the values described, in `Grid.varied` order
    cells: dict[str, Cell]  # host buffer name -> cell

    @property
    def label(self) -> str:
        return ", ".join(f"{n}={v}" for n, v in zip(self.values, self.labels)) or "base"


@dataclass
class Grid:
    """One host/device pair."""

    host: str
    device: str
    evidence: str | None
    varied: list[str]
    columns: list[str]  # host buffer names
    rows: list[Row] = field(default_factory=list)
    skipped: int = 0  # infeasible or failed config points, not shown
    truncated: bool = False
    unmirrored: list[str] = field(default_factory=list)  # device buffers no host buffer covers
    coverage: EvaluationCoverage | None = None  # None: counted as compared

    @property
    def compared(self) -> bool:
        """A buffer was compared at one config point or more (coverage.py): otherwise the
        grid reads "not compared", never "no disagreement"."""
        return self.coverage is None or self.coverage.compared

    @property
    def not_compared(self) -> str:
        """`not compared (reason)`, or empty when the pair was compared."""
        if self.compared:
            return ""
        return f"not compared ({self.coverage.reason})"

    @property
    def title(self) -> str:
        return f"{self.host} <- {self.device}"

    @property
    def mismatches(self) -> int:
        return sum(cell.mismatch for row in self.rows for cell in row.cells.values())

    @property
    def unresolved(self) -> int:
        return sum(cell.unresolved for row in self.rows for cell in row.cells.values())

    @property
    def summary(self) -> str:
        shown = len(self.rows) * len(self.columns)
        if self.mismatches:
            parts = [f"{self.mismatches} of {shown} cells disagree"]
        else:
            parts = [self.not_compared or "no disagreement"]
        if self.unresolved:
            parts.append(f"{self.unresolved} cells unresolved")
        points = f"{len(self.rows)} config points"
        if self.skipped:
            points += f" ({self.skipped} infeasible or failed, not shown)"
        parts.append(points)
        if self.truncated:
            parts.append("matrix truncated at the config point limit")
        return "; ".join(parts)


def _evidence(result: AuditResult, evaluation) -> str | None:
    """How the pair was decided: every pair this evaluation stands for (call sites that write
    the same arguments share one)."""
    if result.catalog is None:
        return None
    texts = [
        pair.evidence.text()
        for pair in result.catalog.pairs
        if pair.host is evaluation.host
        and pair.device is evaluation.device
        and (
            pair.site is evaluation.site
            or (
                pair.site is not None
                and evaluation.site is not None
                and pair.site.signature() == evaluation.site.signature()
            )
        )
    ]
    return " | ".join(dict.fromkeys(texts)) or None


def build(result: AuditResult, settings: Settings) -> list[Grid]:
    """A grid per evaluated host/device pair; pairs with disagreements first."""
    grids = []
    for evaluation in result.evaluations:
        if evaluation.host is None:
            continue
        feasible = evaluation.feasible
        columns = sorted({name for point in feasible for name in point.host})
        grid = Grid(
            host=evaluation.host.name,
            device=evaluation.device.name,
            evidence=_evidence(result, evaluation),
            varied=list(evaluation.varied),
            columns=columns,
            skipped=len(evaluation.points) - len(feasible),
            truncated=evaluation.truncated,
            coverage=evaluation_coverage(evaluation, settings),
        )
        covered: set[str] = set()
        device_names: set[str] = set()
        for point in feasible:
            device_names.update(point.device)
            cells = {}
            for name in columns:
                host_figure = point.host.get(name)
                device_figure = device_counterpart(name, point.device, settings, point.host)
                if name in point.device:
                    covered.add(name)
                elif device_figure is not None:  # joined by the buffer map, or a sole storage
                    mapped = settings.buffer_map.get(name, [])
                    whole = mapped and all(n in point.device for n in mapped)
                    covered.update(mapped if whole else [device_figure.name])
                cells[name] = Cell(host_figure, device_figure)
            values = {n: point.values.get(n) for n in evaluation.varied}
            labels = [describe_value(v) for v in values.values()]
            grid.rows.append(Row(values, labels, cells))
        # a view of the device holds its tensors: nothing of it is left unmirrored
        if grid.coverage.reason != VIEW:
            grid.unmirrored = sorted(device_names - covered)
        grids.append(grid)
    # pairs that disagree first (stable: otherwise in the order the audit evaluated them)
    return sorted(grids, key=lambda grid: grid.mismatches == 0)


# -- text --------------------------------------------------------------------------------------

LEGEND = (
    "cells: host / device bytes per token per layer; "
    '"!=" and "*": host and device disagree; "?": unresolved (see notes); '
    '"-": nothing to compare with'
)


def _text_cell(cell: Cell, host_width: int, device_width: int) -> str:
    separator = "!=" if cell.mismatch else "/"
    mark = " *" if cell.mismatch else ""
    return f"{cell.host_text:>{host_width}} {separator:>2} {cell.device_text:>{device_width}}{mark}"


def render_text(grids: list[Grid], out: TextIO) -> None:
    if not grids:
        out.write("layout table: no host/device pairs\n")
        return
    out.write(f"layout table ({LEGEND})\n")
    for grid in grids:
        out.write(f"\n{grid.title}\n")
        if grid.evidence:
            out.write(f"  pairing: {grid.evidence}\n")
        if not grid.rows:
            why = grid.coverage.reason if grid.coverage is not None else ""
            if grid.coverage is not None and grid.coverage.detail:
                why += f": {grid.coverage.detail}"
            out.write(f"  not compared: {why} ({grid.skipped} skipped)\n")
            continue
        if not grid.columns:
            out.write("  the host pool holds no buffers\n")
        label_heads = grid.varied or ["config"]
        header = [*label_heads, *grid.columns]
        body = []
        notes: dict[str, None] = {}
        host_widths = {
            name: max(len(row.cells[name].host_text) for row in grid.rows) for name in grid.columns
        }
        device_widths = {
            name: max(len(row.cells[name].device_text) for row in grid.rows)
            for name in grid.columns
        }
        for row in grid.rows:
            labels = row.labels if grid.varied else ["base"]
            texts = []
            for name in grid.columns:
                cell = row.cells[name]
                texts.append(_text_cell(cell, host_widths[name], device_widths[name]))
                for reason in cell.reasons:
                    notes[f"{name} {reason}"] = None
            body.append([*labels, *texts])
        widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
        for line in [header, *body]:
            out.write("  " + "  ".join(t.ljust(w) for t, w in zip(line, widths)).rstrip() + "\n")
        out.write(f"  {grid.summary}\n")
        if grid.unmirrored:
            out.write(f"  device buffers with no host mirror: {', '.join(grid.unmirrored)}\n")
        for note in notes:
            out.write(f"  ? {note}\n")


# -- HTML --------------------------------------------------------------------------------------

STYLE = """\
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #1b1b1b; background: #fff; }
h1 { font-size: 1.3em; margin: 0 0 .4em; }
h2 { font-size: 1.1em; margin: 1.6em 0 .2em; font-family: ui-monospace, monospace; }
p { margin: .2em 0; }
.meta { color: #555; }
table { border-collapse: collapse; margin: .6em 0; }
th, td { border: 1px solid #bbb; padding: .25em .6em; white-space: nowrap; }
th { background: #f0f0f0; text-align: left; font-family: ui-monospace, monospace; }
td { font-family: ui-monospace, monospace; }
td.size { text-align: right; }
td.mismatch { background: #e0242b; color: #fff; font-weight: bold; }
td.unresolved { background: #fff3b0; }
td.absent { color: #999; }
.legend { display: flex; gap: 1.2em; align-items: center; margin: .5em 0 1em; }
.legend span.swatch { display: inline-block; width: 1.4em; height: 1em; border: 1px solid #bbb;
  vertical-align: middle; margin-right: .3em; }
.swatch.ok { background: #fff; }
.swatch.mismatch { background: #e0242b; }
.swatch.unresolved { background: #fff3b0; }
section.not-compared h2, .swatch.not-compared { background: #d8d8d8; }
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _html_cell(cell: Cell) -> str:
    classes = ["size"]
    if cell.mismatch:
        classes.append("mismatch")
        separator = " &ne; "
    else:
        separator = " / "
    if cell.unresolved:
        classes.append("unresolved")
    if cell.host is None:
        classes.append("absent")
    title = cell.detail
    if cell.reasons:
        title = "\n".join(cell.reasons) + "\n" + title
    return (
        f'<td class="{" ".join(classes)}" title="{_e(title)}" '
        f'data-host="{_e(cell.host_text)}" data-device="{_e(cell.device_text)}">'
        f"{_e(cell.host_text)}{separator}{_e(cell.device_text)}</td>"
    )


def _html_grid(grid: Grid) -> list[str]:
    section = "pair" if grid.compared else "pair not-compared"
    parts = [f'<section class="{section}">\n<h2>{_e(grid.host)} &larr; {_e(grid.device)}</h2>']
    if grid.evidence:
        parts.append(f'<p class="meta evidence">pairing: {_e(grid.evidence)}</p>')
    parts.append(f'<p class="meta summary">{_e(grid.summary)}</p>')
    if not grid.compared and grid.coverage is not None and grid.coverage.detail:
        parts.append(f'<p class="meta why">{_e(grid.coverage.detail)}</p>')
    if grid.rows:
        heads = grid.varied or ["config"]
        parts.append("<table>\n<thead><tr>")
        parts.extend(f'<th scope="col" class="dim">{_e(h)}</th>' for h in heads)
        parts.extend(f'<th scope="col" class="buffer">{_e(c)}</th>' for c in grid.columns)
        parts.append("</tr></thead>\n<tbody>")
        for row in grid.rows:
            labels = row.labels if grid.varied else ["base"]
            cells = "".join(_html_cell(row.cells[name]) for name in grid.columns)
            dims = "".join(f'<th scope="row" class="dim">{_e(v)}</th>' for v in labels)
            parts.append(f'<tr title="{_e(row.label)}">{dims}{cells}</tr>')
        parts.append("</tbody>\n</table>")
    if grid.unmirrored:
        parts.append(
            f'<p class="meta">device buffers with no host mirror: {_e(", ".join(grid.unmirrored))}</p>'
        )
    parts.append("</section>")
    return parts


def render_html(grids: list[Grid], out: TextIO, title: str = "layout-audit: layout table") -> None:
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">\n<head>\n<meta charset="utf-8">',
        f"<title>{_e(title)}</title>",
        f"<style>\n{STYLE}</style>\n</head>\n<body>",
        f"<h1>{_e(title)}</h1>",
        '<p class="meta">Each cell: host / device bytes per token per layer, for a host buffer'
        " and the device buffer(s) it mirrors, at one config point. Hover a cell for the"
        " arithmetic.</p>",
        '<div class="legend">'
        '<span><span class="swatch ok"></span>sizes agree</span>'
        '<span><span class="swatch mismatch"></span>host &ne; device (LA001)</span>'
        '<span><span class="swatch unresolved"></span>? unresolved (reason in the tooltip)</span>'
        "<span>- nothing to compare with</span>"
        '<span><span class="swatch not-compared"></span>pair not compared at any config point'
        "</span>"
        "</div>",
    ]
    if not grids:
        parts.append('<p class="empty">No host/device pairs.</p>')
    for grid in grids:
        parts.extend(_html_grid(grid))
    parts.append("</body>\n</html>\n")
    out.write("\n".join(parts))
