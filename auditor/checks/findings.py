"""Findings: the facts a check reports, as data every output format renders the same way."""

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


@dataclass(frozen=True)
class Finding:
    code: str
    message: str
    location: Location
    host: Side | None = None
    device: Side | None = None
    config: dict[str, Any] = field(default_factory=dict)  # first point where it shows
    points: tuple[dict[str, Any], ...] = ()  # every point where it shows, with both figures
    points_evaluated: int = 0
    pairing: str = ""
    pairing_detail: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

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
        return data
