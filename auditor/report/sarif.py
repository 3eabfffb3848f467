"""SARIF 2.1.0 output, for GitHub code scanning (`github/codeql-action/upload-sarif`).

One run; one rule per check code plus E902 (a file that could not be read or parsed); one
result per finding or file error. The device side of a host/device pair is a related location,
linked from the message so code scanning shows it. `partialFingerprints` hash what identifies
a finding (code, file, host class, buffer, device class), never line numbers, so an alert
stays the same alert when the lines above it move.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from pathlib import Path, PurePath
from typing import Any, TextIO
from urllib.parse import quote

from auditor import __version__
from auditor.checks import checks
from auditor.checks.findings import Finding
from auditor.location import Location
from auditor.result import AuditResult

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
TOOL_NAME = "layout-audit"
SRCROOT = "%SRCROOT%"
FINGERPRINT_KEY = "layoutAudit/v1"
LEVEL = "error"
DEVICE_LOCATION_ID = 1

FILE_ERROR_CODE = "E902"
FILE_ERROR_NAME = "unreadable-file"
FILE_ERROR_SUMMARY = "File could not be read or parsed"
FILE_ERROR_EXPLANATION = """\
## What it finds
A Python file that layout-audit could not read or parse: a syntax error, an undecodable
encoding, NUL bytes, a file over the size limit, or nesting too deep to parse. The message
names the cause.

## Why it matters
Nothing in that file was audited, so a mismatch in it would go unreported. Every other file
was still audited.

## Use instead
Fix the file, or exclude it (`exclude = [...]` in `[tool.layout-audit]`) if it is not meant to
be audited.
"""


def _first_paragraph(explanation: str) -> str:
    """The first paragraph of an explanation that is not a Markdown heading, on one line."""
    for block in explanation.split("\n\n"):
        lines = [line.strip() for line in block.strip().splitlines()]
        if lines and not lines[0].startswith("#"):
            return " ".join(lines)
        if len(lines) > 1:  # a heading directly followed by its paragraph
            return " ".join(lines[1:])
    return ""


def _rule(code: str, name: str, summary: str, explanation: str) -> dict[str, Any]:
    return {
        "id": code,
        "name": name,
        "shortDescription": {"text": summary},
        "fullDescription": {"text": _first_paragraph(explanation) or summary},
        "help": {"text": explanation, "markdown": explanation},
        "defaultConfiguration": {"level": LEVEL},
    }


def rules() -> list[dict[str, Any]]:
    """Every check, then E902: the same rules whatever this run found."""
    listed = [
        _rule(code, check.name, check.summary, check.explanation)
        for code, check in checks().items()
    ]
    listed.append(
        _rule(FILE_ERROR_CODE, FILE_ERROR_NAME, FILE_ERROR_SUMMARY, FILE_ERROR_EXPLANATION)
    )
    return listed


def artifact_location(path: str, root: str | os.PathLike[str] | None = None) -> dict[str, str]:
    """A URI relative to %SRCROOT% (the repository root) with `/`; absolute outside it.

    `path` is as the audit printed it (relative to the working directory, or absolute);
    with `root`, it is made relative to `root` instead.
    """
    if root is not None:
        base = Path(os.path.normpath(Path(root).absolute()))
        absolute = Path(os.path.normpath(Path(path).absolute()))
        try:
            relative = absolute.relative_to(base)
        except ValueError:
            return {"uri": absolute.as_uri()}
        return {"uri": quote(relative.as_posix()), "uriBaseId": SRCROOT}
    pure = PurePath(path)
    if pure.is_absolute():
        return {"uri": Path(path).as_uri()}
    normal = PurePath(os.path.normpath(pure))
    if normal.parts and normal.parts[0] == "..":  # above the working directory
        return {"uri": Path(os.path.normpath(Path(path).absolute())).as_uri()}
    return {"uri": quote(normal.as_posix()), "uriBaseId": SRCROOT}


def region(location: Location) -> dict[str, int]:
    """SARIF's region: 1-based lines and columns, endColumn just past the last character."""
    start_line = max(location.line, 1)
    start_column = max(location.column, 1)
    data = {"startLine": start_line, "startColumn": start_column}
    end_line = location.end_line
    if end_line is not None and end_line >= start_line:
        data["endLine"] = end_line
        end_column = location.end_column
        if end_column is not None and (end_line > start_line or end_column >= start_column):
            data["endColumn"] = max(end_column, 1)
    return data


def physical_location(location: Location, root: str | os.PathLike[str] | None) -> dict[str, Any]:
    return {
        "physicalLocation": {
            "artifactLocation": artifact_location(location.path, root),
            "region": region(location),
        }
    }


def _escape_brackets(text: str) -> str:
    """Literal brackets in a message that also holds an embedded link (SARIF 3.11.6)."""
    return text.replace("[", "\\[").replace("]", "\\]")


def identity(code: str, uri: str, finding: Finding | None) -> str:
    """What makes a result the same result across runs: no lines, no columns, no figures."""
    if finding is None:  # a file error: one per file
        parts = [code, uri]
    elif finding.host is not None and finding.device is not None:
        parts = [code, uri, finding.host.class_name, finding.host.buffer, finding.device.class_name]
    else:  # e.g. LA100, whose message names the codes of the suppression, not a line
        parts = [code, uri, finding.message]
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()


def _finding_result(finding: Finding, root: str | os.PathLike[str] | None) -> dict[str, Any]:
    primary = physical_location(finding.location, root)
    data: dict[str, Any] = {"ruleId": finding.code, "level": LEVEL}
    if finding.device is not None:
        device = finding.device
        text = (
            f"{_escape_brackets(finding.message)}. Device side: "
            f"[{_escape_brackets(f'{device.class_name}.{device.buffer}')}]({DEVICE_LOCATION_ID})."
        )
        related = {
            "id": DEVICE_LOCATION_ID,
            **physical_location(device.location, root),
            "message": {
                "text": f"device side: {device.class_name}.{device.buffer}: {device.arithmetic}"
            },
        }
        data["message"] = {"text": text}
        data["locations"] = [primary]
        data["relatedLocations"] = [related]
    else:
        data["message"] = {"text": finding.message}
        data["locations"] = [primary]
    properties: dict[str, Any] = {}
    if finding.config:
        properties["config"] = finding.config
        properties["pointsEvaluated"] = finding.points_evaluated
    if finding.pairing:
        properties["pairing"] = finding.pairing
    if properties:
        data["properties"] = properties
    return data


def build(
    result: AuditResult,
    *,
    root: str | os.PathLike[str] | None = None,
    information_uri: str | None = None,
) -> dict[str, Any]:
    """The SARIF log as a JSON-ready dict."""
    rule_list = rules()
    index = {rule["id"]: i for i, rule in enumerate(rule_list)}
    entries: list[tuple[dict[str, Any], str]] = []
    for error in result.errors:
        location = Location(error.path, error.line, error.column)
        data = {
            "ruleId": FILE_ERROR_CODE,
            "level": LEVEL,
            "message": {"text": error.message},
            "locations": [physical_location(location, root)],
        }
        uri = data["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        entries.append((data, identity(FILE_ERROR_CODE, uri, None)))
    for finding in result.findings:
        data = _finding_result(finding, root)
        uri = data["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        entries.append((data, identity(finding.code, uri, finding)))
    results = []
    seen: Counter[str] = Counter()
    for data, digest in entries:
        code = data["ruleId"]
        if code not in index:  # a code without a check module: still a valid rule
            index[code] = len(rule_list)
            rule_list.append({"id": code, "defaultConfiguration": {"level": LEVEL}})
        seen[digest] += 1  # same identity twice in a run: told apart by order, not by line
        results.append(
            {
                "ruleId": code,
                "ruleIndex": index[code],
                **{k: v for k, v in data.items() if k != "ruleId"},
                "partialFingerprints": {FINGERPRINT_KEY: f"{digest}:{seen[digest]}"},
            }
        )
    driver = {
        "name": TOOL_NAME,
        "version": __version__,
        "semanticVersion": __version__,
        "rules": rule_list,
    }
    if information_uri is not None:  # the project has no public home page yet
        driver["informationUri"] = information_uri
    return {
        "$schema": SCHEMA_URI,
        "version": SARIF_VERSION,
        "runs": [
            {
                "tool": {"driver": driver},
                "columnKind": "unicodeCodePoints",
                "results": results,
                "properties": _coverage_properties(result),
            }
        ],
    }


def _camel(name: str) -> str:
    """`pairs_compared` -> `pairsCompared`, as SARIF names its properties."""
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def _coverage_properties(result: AuditResult) -> dict[str, Any]:
    """The run's coverage (coverage.py) as SARIF run properties: the counts, and every pair
    never compared with its reason, so an empty `results` is not read as all compared."""
    coverage = result.coverage
    counts = {_camel(key): value for key, value in coverage.summary_json().items()}
    return {
        "coverage": {
            **counts,
            "neverCompared": [
                {
                    "host": pair.host,
                    "device": pair.device,
                    "path": pair.location.path,
                    "line": pair.location.line,
                    "reason": pair.reason,
                    "detail": pair.detail,
                }
                for pair in coverage.never_compared
            ],
        },
        "configPoints": result.points_evaluated,
        "unresolved": len(result.unresolved),
    }


def render(
    result: AuditResult,
    out: TextIO,
    *,
    root: str | os.PathLike[str] | None = None,
    information_uri: str | None = None,
) -> None:
    """Write the SARIF log. `root`: make artifact URIs relative to it (the repository root)
    instead of the working directory."""
    json.dump(build(result, root=root, information_uri=information_uri), out, indent=2)
    out.write("\n")
