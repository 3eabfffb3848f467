"""Findings: the facts a check reports, as data every output format renders the same way.

A finding's message is written from its data: each check states what it found as a `Facts`
(its figures, names and conditions), whose `sentence()` is the message; LA001 moving a finding to
the call site whose arguments make the difference is a `SiteNote` on it, not an edit of the text.
Checks compare findings by that data (LA001 and LA002 report a disagreement reached through
several pairs once).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from auditor.location import Location


@dataclass(frozen=True)
class Side:
    """One side of a host/device pair for one buffer."""

    role: str  # "host" or "device"
    class_name: str
    buffer: str
    location: Location
    bytes_per_token: int  # bytes per token per layer
    arithmetic: str

    def as_json(self) -> dict[str, Any]:
        return {
            "class": self.class_name,
            "buffer": self.buffer,
            "path": self.location.path,
            "line": self.location.line,
            "bytes_per_token": self.bytes_per_token,
            "arithmetic": self.arithmetic,
        }


class Facts:
    """What a check found, as data (a frozen dataclass of the check's own); `sentence()` writes
    it as the finding's message."""

    def sentence(self) -> str:
        raise NotImplementedError

    def holds_for_any(self) -> tuple[str, ...]:
        """Parameters nothing gives a value that the finding holds for any value of (sampled:
        the figures were the same at every sample)."""
        return ()


@dataclass(frozen=True)
class SiteNote:
    """A finding reported at a construction call rather than at the host's formula (LA001):
    another call of the same host and device classes agrees, and these arguments differ."""

    agreeing: str  # `path:line` of the call that agrees
    differing: tuple[str, ...]  # each argument that makes the difference, as said

    def sentence(self) -> str:
        return (
            f"; the call site's arguments make the difference (the call at {self.agreeing} "
            "agrees): " + "; ".join(self.differing)
        )


@dataclass(frozen=True)
class Finding:
    code: str
    facts: Facts | str  # what the check found; a str is a message as written (tests, plugins)
    location: Location
    host: Side | None = None
    device: Side | None = None
    config: dict[str, Any] = field(default_factory=dict)  # first point where it shows
    points: tuple[dict[str, Any], ...] = ()  # every point where it shows, with both figures
    points_evaluated: int = 0
    pairing: str = ""
    pairing_detail: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    site_note: SiteNote | None = None  # moved from the host's formula (`host.location`) to a call

    @property
    def message(self) -> str:
        """The finding in words, written from its data."""
        text = self.facts if isinstance(self.facts, str) else self.facts.sentence()
        return text + (self.site_note.sentence() if self.site_note is not None else "")

    def sort_key(self) -> tuple:
        return (
            self.location.path,
            self.location.line,
            self.location.column,
            self.code,
            self.message,
        )

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "code": self.code,
            "path": self.location.path,
            "line": self.location.line,
            "column": self.location.column,
            "end_line": self.location.end_line,
            "end_column": self.location.end_column,
            "message": self.message,
        }
        if self.host is not None:
            data["host"] = self.host.as_json()
        if self.device is not None:
            data["device"] = self.device.as_json()
        if self.config:
            data["config"] = self.config
            data["points"] = list(self.points)
            data["points_evaluated"] = self.points_evaluated
        if self.pairing:
            data["pairing"] = self.pairing
        if self.pairing_detail:
            data["pairing_evidence"] = self.pairing_detail
        if not isinstance(self.facts, str) and self.facts.holds_for_any():
            data["holds_for_any"] = list(self.facts.holds_for_any())
        return data
