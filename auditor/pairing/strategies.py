"""How a host pool is paired with its devices: one strategy per source of evidence.

The catalog (catalog.py) asks the strategies in precedence order and the first that claims a
host decides its pairs: the project's configuration (`[tool.layout-audit.pairs]`) over the
code; where the code builds the host (its construction sites, sites.py) over what the host's
parameter type says; a host built from a record of a device pool's buffers, built nowhere in
the audited paths, is unresolved (which pool makes the record is said only at a call); any
other host is paired by its device parameter's annotation. Pairs a device pool declares in data
come later, from running it (declared.py), and are added to these.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from auditor.evaluation.site_run import runnable
from auditor.frontend.index import ClassInfo
from auditor.frontend.scope import code_of
from auditor.interpret.values import Unknown
from auditor.pairing.evidence import BUFFER_INFO, CALL_SITE, Evidence, Pair
from auditor.pairing.sites import ConstructionSite
from auditor.pairing.typed import TypedDevices
from auditor.settings import Settings


class HostCase:
    """One host pool as the strategies see it: where the code builds it, and what its
    parameter's type says (read when first asked, once: reading it may index modules)."""

    def __init__(
        self,
        host: ClassInfo,
        sites: list[ConstructionSite],
        record: bool,
        read_types: Callable[[ClassInfo, bool], TypedDevices],
    ) -> None:
        self.host = host
        self.sites = sites
        self.record = record  # built from a record of a device pool's buffers (buffer_info)
        self._read_types = read_types

    @functools.cached_property
    def typed(self) -> TypedDevices:
        return self._read_types(self.host, self.record)


@dataclass
class Claim:
    """What a strategy decides for a host: its pairs, what it could not decide, and, when
    nothing says which devices the host receives, why it stays unpaired."""

    pairs: list[Pair] = field(default_factory=list)
    unresolved: list[Unknown] = field(default_factory=list)
    unpaired: str | None = None  # why the host is paired with no device pool


class Strategy(Protocol):
    def claim(self, case: HostCase) -> Claim | None:
        """The host's pairs, if this strategy decides them; None leaves it to the next."""


class ConfiguredPairs:
    """The project's configuration decides, not the code."""

    def __init__(
        self, settings: Settings, classes: list[ClassInfo], devices: list[ClassInfo]
    ) -> None:
        self.settings = settings
        self.devices = devices
        self.by_name: dict[str, list[ClassInfo]] = {}
        for cls in classes:
            self.by_name.setdefault(cls.name, []).append(cls)
            self.by_name.setdefault(cls.qualname, []).append(cls)

    def configured(self, host: ClassInfo) -> list[str] | None:
        return self.settings.pairs.get(host.name) or self.settings.pairs.get(host.qualname)

    def claim(self, case: HostCase) -> Claim | None:
        names = self.configured(case.host)
        if names is None:
            return None
        found = Claim()
        for device_name in names:
            matches = [d for d in self.by_name.get(device_name, []) if d in self.devices]
            if not matches:
                found.unresolved.append(
                    Unknown(
                        f"pairs.{case.host.name}: no device pool class {device_name!r} in the tree",
                        case.host.location,
                    )
                )
            found.pairs.extend(Pair(case.host, d, Evidence.configured()) for d in matches)
        return found


class SitePairs:
    """A host built in the audited paths receives the devices its construction sites can hand
    it (the parameter's type only narrows them): its annotation alone is not used."""

    def __init__(self, devices: list[ClassInfo]) -> None:
        self.devices = devices

    def claim(self, case: HostCase) -> Claim | None:
        if not case.sites:
            return None
        typed, host = case.typed, case.host
        evidence = typed.evidence
        found = Claim()
        for site in case.sites:
            if site.problems:  # the call would raise TypeError: nothing is built there
                found.unresolved.extend(
                    Unknown(f"call site {site.where()}: {problem}", site.location)
                    for problem in site.problems
                )
                continue
            if site.unknown_device is not None:
                found.unresolved.append(
                    Unknown(f"call site {site.where()}: {site.unknown_device}", site.location)
                )
                continue
            if site.via_record and site.record_problem is not None:
                found.unresolved.append(
                    Unknown(f"call site {site.where()}: {site.record_problem}", site.location)
                )
                continue
            if site.via_record and isinstance(evidence, Unknown):
                found.unresolved.append(
                    Unknown(
                        f"call site {site.where()}: {evidence.reason}",
                        site.location,
                        cause=evidence,
                    )
                )
                continue
            if isinstance(evidence, Unknown) and not site.narrows():
                continue  # neither the annotation nor the site says which devices come
            candidates = typed.devices if not isinstance(evidence, Unknown) else self.devices
            said = site_evidence(site, evidence if not isinstance(evidence, Unknown) else None)
            admitted = [Pair(host, d, said, site) for d in candidates if site.admits(d)]
            if site.via_record and not admitted:  # say so: the record's maker is not known here
                why = site.declared_from or ", ".join(g.describe() for g in site.guards) or "?"
                found.unresolved.append(
                    Unknown(
                        f"call site {site.where()}: none of the {evidence} can be "
                        f"{site.device_text} here ({why})",
                        site.location,
                    )
                )
            found.pairs.extend(admitted)
        if not found.pairs and isinstance(evidence, Unknown):
            why = evidence.detail
            sites = ", ".join(
                f"{s.where()} ({s.device_parameter}={s.device_text})" for s in case.sites
            )
            found.unpaired = (
                f"{why}, and no call site says which device pools it receives (built at "
                f"{sites}: nothing there narrows the device's class)"
            )
        return found


def site_evidence(site: ConstructionSite, annotation: str | None) -> Evidence:
    """What a construction site says of the devices it hands the host."""
    if runnable(site):  # its dicts, helpers and factories are followed by running it
        name = site.function.rsplit(".", 1)[-1]
        note = f"arguments as {name}() computes them, {site.device_text} = the device pool"
    else:
        note = site.unfollowed or None
    record = None
    if site.via_record:
        record = f"{site.device_parameter}={code_of(site.arguments[site.device_parameter])}"
        if site.from_callers is not None:  # the function's parameter, as its callers pass it
            record += f" ({site.from_callers.describe()})"
    guards = (g.describe() for g in site.guards if g.subject == site.device_text)
    return Evidence(
        kind=BUFFER_INFO if site.via_record else CALL_SITE,
        location=site.location,
        function=site.function,
        how=site.how,
        device_argument=site.device_text,
        record=record,
        guards=tuple(dict.fromkeys(guards)),
        declared=site.declared_from or None,
        arguments=tuple(sorted(site.arguments)),
        annotation=annotation,
        note=note,
    )


class RecordPairs:
    """A host built from a record of a device pool's buffers and built nowhere in the audited
    paths: which pool makes the record is said only at a call, so it stays unresolved."""

    def claim(self, case: HostCase) -> Claim | None:
        if not case.record:
            return None
        evidence = case.typed.evidence
        if isinstance(evidence, Unknown):
            return Claim(unresolved=[evidence])
        host = case.host
        why = Unknown(
            f"host pool {host.name} is built from a record of a device pool's buffers "
            "and no call site in the audited paths says which pool makes it",
            host.location,
        )
        return Claim(unresolved=[why])


class AnnotationPairs:
    """A host built nowhere in the audited paths receives every device pool its device
    parameter's annotation names (or, untyped, every one holding the buffers it reads)."""

    def claim(self, case: HostCase) -> Claim:
        typed = case.typed
        if isinstance(typed.evidence, Unknown):  # a host all the same: never paired, said
            return Claim(unpaired=typed.evidence.detail or typed.evidence.reason)
        said = Evidence.by_annotation(typed.evidence)
        return Claim(pairs=[Pair(case.host, d, said) for d in typed.devices])
