"""What the first build of a config point decided before any host was built, shared by pairs.

The same device pool is evaluated with several hosts: a factory at one construction site picks
one of three host classes, so the catalog makes three pairs of that site, and each explores the
same matrix. At most points the first build stops before a host is built: the device refuses
the point, or the function holding the site builds another host class there. That outcome is
decided by the config values the code read up to that moment, not by the host, so it is kept
here and given to the next evaluation of the same device (and site) at a point that agrees on
those values. The interpreter is deterministic and reads config only through its `ConfigPoint`,
so the replay is exactly what running it again would give (tests/test_first_builds.py compares
whole audits with and without it).

Modules the skipped run reached are noted for the per-evaluation cache (incremental/), which
must still see every module an evaluation depends on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from auditor.frontend.index import ClassInfo, ProjectIndex
from auditor.interpret.control import Infeasible


@dataclass(frozen=True)
class FirstBuild:
    """One first build's outcome before any host: the values it read, and what happened."""

    read: tuple[tuple[str, Any], ...]  # (dimension, value) the build read before the outcome
    reads: frozenset[str]  # every config name it read (as ConfigPoint.reads)
    demands: frozenset  # literals the code compared those dimensions with (ConfigPoint.demands)
    modules: frozenset[str]  # modules the build reached (for the per-evaluation cache)
    refused: Infeasible | None = None  # the device (or the path to the call) refused the point
    built: ClassInfo | None = None  # the host class the function holding the site called


class FirstBuilds:
    """First-build outcomes per (device class, site call, names of the point's values)."""

    def __init__(self, index: ProjectIndex) -> None:
        self.index = index
        self.entries: dict[tuple, list[FirstBuild]] = {}

    @staticmethod
    def key(device: ClassInfo, call: Any, values: dict[str, Any]) -> tuple:
        return (id(device), id(call) if call is not None else None, frozenset(values))

    def find(self, key: tuple, values: dict[str, Any]) -> FirstBuild | None:
        for entry in self.entries.get(key, ()):
            if all(values.get(name, _ABSENT) == value for name, value in entry.read):
                return entry
        return None

    def keep(self, key: tuple, entry: FirstBuild) -> None:
        self.entries.setdefault(key, []).append(entry)

    def recording(self) -> set[str]:
        """Start noting the modules a build reaches (a no-op for a plain index)."""
        noted: set[str] = set()
        recordings = getattr(self.index, "recordings", None)
        if recordings is not None:
            recordings.append(noted)
        return noted

    def stop_recording(self, noted: set[str]) -> None:
        recordings = getattr(self.index, "recordings", None)
        if recordings and recordings[-1] is noted:
            recordings.pop()

    def replayed(self, entry: FirstBuild) -> None:
        """A replay reached, for the per-evaluation cache, the modules the build reached."""
        for recording in getattr(self.index, "recordings", ()):
            recording.update(entry.modules)


_ABSENT = object()
