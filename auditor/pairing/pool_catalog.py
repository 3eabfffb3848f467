"""What the catalog found (stage 6): the pools, their pairs, and the classes left out.

Its own module, apart from the pairing code (catalog.py), so that a run where no file may hold
a pool can say "0 device pools" without loading the interpreter (pipeline.nothing_to_audit).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from auditor.frontend.index import ClassInfo
    from auditor.interpret.values import Unknown
    from auditor.pairing.evidence import Pair
    from auditor.pairing.sites import ConstructionSite


SIZED_BY_DEVICE = "sized by its device"


@dataclass
class PoolCatalog:
    devices: list[ClassInfo]
    hosts: list[ClassInfo]
    pairs: list[Pair]
    unresolved: list[Unknown]
    sites: list[ConstructionSite] = field(default_factory=list)
    not_hosts: list[tuple[ClassInfo, str]] = field(default_factory=list)  # (class, why)
    # host pools (they allocate buffers of device pools' names) that nothing pairs with a
    # device pool the audit builds: never compared, counted and listed (class, why)
    unpaired: list[tuple[ClassInfo, str]] = field(default_factory=list)
    searched: list[str] = field(default_factory=list)  # names sought in every file's bytes
    # host pools nothing pairs whose size per token is read off the device's own tensors and
    # that allocate nothing at a size of their own (sized_by_device.py): no layout of their
    # own to compare; not compared, counted apart from `unpaired` and listed (class, why)
    by_device: list[tuple[ClassInfo, str]] = field(default_factory=list)
    # classes allocating per layer over a count read off an object (`cfg.num_layers`), which
    # no role is inferred from: shown, so that "no device pool" does not hide them (class,
    # the counts' paths: not_audited_why says it)
    not_devices: list[tuple[ClassInfo, str]] = field(default_factory=list)
    # Each pool's token, layer and device-pool parameters: not a field, so a catalog is stored
    # in the cache without it (what it holds is in the stored evaluations; None when loaded).
    roles = None

    def left_out(self) -> list[tuple[str, ClassInfo, str]]:
        """Classes that looked like pools but are not audited as one, for `--show-pairs`:
        (`not a host pool`, `never paired`, `sized by its device` or `not audited`, the
        class, why)."""
        return [
            *(("not a host pool", cls, why) for cls, why in self.not_hosts),
            *(("never paired", cls, why) for cls, why in self.unpaired),
            *((SIZED_BY_DEVICE, cls, why) for cls, why in self.by_device),
            *(("not audited", cls, not_audited_why(paths)) for cls, paths in self.not_devices),
        ]

    def add_declared(self, pairs: list[Pair]) -> None:
        """Pairs a device pool declares in data (declared.py): counted like the others."""
        self.pairs.extend(pairs)
        self.hosts.extend(p.host for p in pairs if p.host not in self.hosts)
        # a declared host is audited, whatever its counts were read off before it was known
        hosts = {id(h) for h in self.hosts}
        self.not_devices = [(c, why) for c, why in self.not_devices if id(c) not in hosts]
        # (a host the catalog found no pair for, a declaration pairs: 0.5.23's DSA indexer
        # host, kin of the host pools by its base)
        declared = {id(p.host) for p in pairs}
        self.unpaired = [(c, why) for c, why in self.unpaired if id(c) not in declared]


def not_audited_why(paths: str) -> str:
    """Why a class in `PoolCatalog.not_devices` is not audited, for reports."""
    return (
        f"allocates per layer over {paths}, a count read off an object its constructor takes: "
        "only counts passed as constructor parameters are followed"
    )
