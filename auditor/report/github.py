"""GitHub Actions output: `::error` workflow commands, and every result in the job summary.

Each finding (and each file error, as E902) becomes one annotation on its file and lines.
GitHub shows at most 10 error annotations per step and drops the rest: with more than 10
results, the first 9 are annotated and the 10th annotation says how many more there are. All
of them go to the step log (the overflow folded in a group) and, when `GITHUB_STEP_SUMMARY`
names a file, to a Markdown table appended to that job summary.
"""

from __future__ import annotations

import html
import os
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import TextIO

from auditor.checks import checks
from auditor.result import AuditResult

ANNOTATION_LIMIT = 10  # error annotations GitHub shows per step
FILE_ERROR_CODE = "E902"
FILE_ERROR_TITLE = "File could not be read or parsed"
SUMMARY_ENV = "GITHUB_STEP_SUMMARY"


@dataclass(frozen=True)
class Item:
    """One annotation: a finding or a file error, flattened."""

    code: str
    title: str
    path: str
    line: int
    column: int
    end_line: int | None
    end_column: int | None
    message: str  # may span several lines

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


def escape_data(text: str) -> str:
    """Escape a workflow command's message (the part after `::`)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a workflow command's property value (`file=...`, `title=...`)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _shown_path(path: str, root: str | os.PathLike[str] | None) -> str:
    """The path as GitHub matches it against the repository: relative to `root`, with `/`."""
    if root is not None:
        base = Path(os.path.normpath(Path(root).absolute()))
        absolute = Path(os.path.normpath(Path(path).absolute()))
        try:
            path = str(absolute.relative_to(base))
        except ValueError:
            path = str(absolute)
    return PurePath(path).as_posix()


def items(result: AuditResult, root: str | os.PathLike[str] | None = None) -> list[Item]:
    """File errors first, then findings: the order the text and JSON outputs use."""
    listed = [
        Item(
            FILE_ERROR_CODE,
            FILE_ERROR_TITLE,
            _shown_path(error.path, root),
            error.line,
            error.column,
            None,
            None,
            error.message,
        )
        for error in result.errors
    ]
    for finding in result.findings:
        check = checks().get(finding.code)
        lines = [finding.message]
        if finding.device is not None:
            device = finding.device.location
            lines.append(
                f"device side: {finding.device.class_name}.{finding.device.buffer} at "
                f"{_shown_path(device.path, root)}:{device.line}:{device.column}"
            )
        if finding.pairing:
            lines.append(f"pairing: {finding.pairing}")
        location = finding.location
        listed.append(
            Item(
                finding.code,
                check.summary if check is not None else "",
                _shown_path(location.path, root),
                location.line,
                location.column,
                location.end_line,
                location.end_column,
                "\n".join(lines),
            )
        )
    return listed


def annotation(item: Item) -> str:
    """One `::error` command. Columns only for a range on one line, as GitHub requires."""
    one_line = item.end_line is None or item.end_line == item.line
    properties: list[tuple[str, object]] = [("file", item.path), ("line", item.line)]
    if one_line:
        properties.append(("col", item.column))
    if item.end_line is not None:
        properties.append(("endLine", item.end_line))
        if one_line and item.end_column is not None:
            properties.append(("endColumn", item.end_column))
    title = f"{item.code} {item.title}" if item.title else item.code
    properties.append(("title", title))
    rendered = ",".join(f"{name}={escape_property(str(value))}" for name, value in properties)
    return f"::error {rendered}::{escape_data(item.message)}"


def _cell(text: str) -> str:
    """Text safe inside one Markdown table cell."""
    escaped = html.escape(text, quote=False).replace("|", "\\|")
    return "<br>".join(escaped.replace("\r\n", "\n").replace("\r", "\n").split("\n"))


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def summary_markdown(
    result: AuditResult, listed: list[Item], root: str | os.PathLike[str] | None = None
) -> str:
    """The job summary: a heading with the counts, then one table row per item."""
    counts = [_plural(len(result.findings), "finding")]
    if result.errors:
        counts.append(_plural(len(result.errors), "file error"))
    lines = [f"## layout-audit: {', '.join(counts)}", "", *_coverage_markdown(result, root)]
    if listed:
        lines += ["| Code | Location | Message |", "| --- | --- | --- |"]
        lines += [
            f"| {_cell(item.code)} | {_cell(item.where)} | {_cell(item.message)} |"
            for item in listed
        ]
        lines.append("")
    return "\n".join(lines) + "\n"


def _coverage_markdown(result: AuditResult, root: str | os.PathLike[str] | None) -> list[str]:
    """What was compared, so a green check with pairs never compared reads as such: the
    counts, then each pair never compared with its reason (coverage.py)."""
    coverage = result.coverage
    if coverage.notice:
        return [f"**Nothing compared:** {_cell(coverage.notice)}", ""]
    if not coverage.pairs:
        return []
    never = coverage.never_compared
    lines = [f"**Coverage:** {_cell(coverage.line())}", ""]
    if never:
        lines += [
            "| Pair never compared | Where | Why |",
            "| --- | --- | --- |",
            *(
                f"| {_cell(pair.title)} "
                f"| {_cell(f'{_shown_path(pair.location.path, root)}:{pair.location.line}')} "
                f"| {_cell(pair.why)} |"
                for pair in never
            ),
            "",
        ]
    return lines


def _write_summary(path: str | os.PathLike[str], text: str) -> str | None:
    """Append to the job summary; the reason it failed, or None."""
    try:
        with open(path, "a", encoding="utf-8") as summary:
            summary.write(text)
    except OSError as error:
        return error.strerror or str(error)
    return None


def render(
    result: AuditResult,
    out: TextIO,
    *,
    summary_path: str | os.PathLike[str] | None = None,
    root: str | os.PathLike[str] | None = None,
) -> None:
    """Write annotations to `out` (the step log).

    `summary_path`: the job summary file to append to; by default the file named by
    `GITHUB_STEP_SUMMARY`, and none when that is unset or empty.
    `root`: make paths relative to this folder (the repository root) instead of the
    working directory.
    """
    if summary_path is None:
        summary_path = os.environ.get(SUMMARY_ENV) or None
    listed = items(result, root)
    in_summary = False
    if summary_path is not None:
        failure = _write_summary(summary_path, summary_markdown(result, listed, root))
        if failure is None:
            in_summary = True
        else:
            out.write(
                "::warning title="
                + escape_property("layout-audit: no job summary")
                + "::"
                + escape_data(f"could not write the job summary {summary_path}: {failure}")
                + "\n"
            )
    annotated = listed if len(listed) <= ANNOTATION_LIMIT else listed[: ANNOTATION_LIMIT - 1]
    for item in annotated:
        out.write(annotation(item) + "\n")
    rest = listed[len(annotated) :]
    if not rest:
        return
    where = "the job summary" if in_summary else "the log of this step"
    more = f"{len(rest)} more"
    message = (
        f"{more} not shown as annotations (GitHub shows at most {ANNOTATION_LIMIT} per step); "
        f"all {len(listed)} findings and file errors are listed in {where}."
    )
    out.write(f"::error title={escape_property(f'layout-audit: {more}')}::{escape_data(message)}\n")
    out.write(f"::group::layout-audit: {escape_data(f'{more} not annotated')}\n")
    for item in rest:
        text = item.message.replace("\r\n", "\n").replace("\n", "\n  ")
        out.write(f"{item.where}: {item.code} {text}\n")
    out.write("::endgroup::\n")
