"""Baselines: adopt the auditor on a tree that already has findings, and block only new ones.

An entry names a disagreement, not a line: the code, both classes, the buffer and every pair of
figures (host, device bytes per token per layer) where it shows. Code moving keeps it matched;
a changed figure on a baselined buffer is a different disagreement, so it is reported. Entries
that match nothing any more are stale and reported as such (as pylint's baselines and ruff's
`--add-noqa` leave old entries to be cleaned up by rewriting).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from auditor.checks.findings import Finding

FORMAT_KEY = "layout-audit-baseline"
FORMAT = 1


class BaselineError(Exception):
    """A baseline that cannot be read or written; the message names the file and the cause."""


def identity(finding: Finding) -> dict[str, Any]:
    """What makes a finding the same disagreement, whatever line it is on."""
    if finding.host is None and finding.device is None:  # LA100: a comment in a file
        return {"code": finding.code, "path": finding.location.path, "message": finding.message}
    side = finding.host or finding.device
    assert side is not None
    figures = sorted(
        {
            (point.get("host_bytes_per_token"), point.get("device_bytes_per_token"))
            for point in finding.points
        },
        key=repr,
    )
    if not figures:
        figures = [
            (
                finding.host.bytes_per_token if finding.host else None,
                finding.device.bytes_per_token if finding.device else None,
            )
        ]
    return {
        "code": finding.code,
        "host": finding.host.class_name if finding.host else None,
        "device": finding.device.class_name if finding.device else None,
        "buffer": side.buffer,
        "figures": [list(pair) for pair in figures],
    }


def _key(entry: dict[str, Any]) -> str:
    return json.dumps(entry, sort_keys=True)


@dataclass
class Baseline:
    path: Path
    entries: list[dict[str, Any]]  # each: {"id": identity, "path", "line", "message"}

    def split(self, findings: list[Finding]) -> tuple[list[Finding], int, list[dict[str, Any]]]:
        """(findings not in the baseline, how many were, the stale entries)."""
        left = Counter(_key(entry["id"]) for entry in self.entries)
        new: list[Finding] = []
        known = 0
        for finding in findings:
            key = _key(identity(finding))
            if left[key] > 0:
                left[key] -= 1
                known += 1
            else:
                new.append(finding)
        stale = []
        for entry in self.entries:
            key = _key(entry["id"])
            if left[key] > 0:
                left[key] -= 1
                stale.append(entry)
        return new, known, stale


def describe(entry: dict[str, Any]) -> str:
    """One stale entry, as a reader finds it: `LA001 Host <- Device.buffer (132 vs 256)`."""
    ident = entry["id"]
    if "buffer" not in ident:
        return f"{ident['code']} {ident.get('path')}: {ident.get('message')}"
    classes = " <- ".join(n for n in (ident.get("host"), ident.get("device")) if n)
    figures = ", ".join(
        " vs ".join(str(f) for f in pair if f is not None) for pair in ident["figures"]
    )
    return f"{ident['code']} {classes}.{ident['buffer']} ({figures})"


def load(path: Path) -> Baseline:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise BaselineError(f"{path}: cannot read baseline: {error.strerror or error}") from None
    except (ValueError, RecursionError) as error:
        raise BaselineError(f"{path}: not a baseline (invalid JSON: {error})") from None
    if not isinstance(data, dict) or data.get(FORMAT_KEY) != FORMAT:
        raise BaselineError(
            f'{path}: not a baseline (expected an object with "{FORMAT_KEY}": {FORMAT}; '
            "write one with --write-baseline)"
        )
    entries = data.get("findings")
    if not isinstance(entries, list) or not all(
        isinstance(e, dict) and isinstance(e.get("id"), dict) and "code" in e["id"] for e in entries
    ):
        raise BaselineError(f'{path}: not a baseline ("findings" must be a list of entries)')
    return Baseline(path, entries)


def write(path: Path, findings: list[Finding]) -> None:
    """The current findings as a baseline, sorted, one entry per finding (atomic replace)."""
    entries = [
        {
            "id": identity(f),
            "path": f.location.path,
            "line": f.location.line,
            "message": f.message,
        }
        for f in findings
    ]
    text = json.dumps({FORMAT_KEY: FORMAT, "findings": entries}, indent=2) + "\n"
    temporary = path.with_name(f".{path.name}.tmp{os.getpid()}")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    except OSError as error:
        try:
            temporary.unlink()
        except OSError:
            pass
        raise BaselineError(f"{path}: cannot write baseline: {error.strerror or error}") from None
