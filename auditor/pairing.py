"""Stage 6: find device pools and host mirrors, and pair each host with its candidate devices.

A device pool is a concrete class whose constructor takes a token count and a layer count.
A host pool is a concrete class whose constructor takes a device pool; the device parameter's
annotation names a base class, and every concrete device pool below it is a candidate.
"""

from __future__ import annotations

from dataclasses import dataclass

from auditor.index import ClassInfo, ProjectIndex, dotted
from auditor.interpret.values import Unknown
from auditor.matrix import constructor_parameters, parameter_names
from auditor.settings import Settings


@dataclass(frozen=True)
class Pair:
    host: ClassInfo
    device: ClassInfo
    evidence: str  # how the pair was decided, shown to users


@dataclass
class PoolCatalog:
    devices: list[ClassInfo]
    hosts: list[ClassInfo]
    pairs: list[Pair]
    unresolved: list[Unknown]

    def add_declared(self, pairs: list[Pair]) -> None:
        """Pairs a device pool declares in data (declared.py): counted like the others."""
        self.pairs.extend(pairs)
        self.hosts.extend(p.host for p in pairs if p.host not in self.hosts)


def is_host_pool(cls: ClassInfo, settings: Settings) -> bool:
    return any(name in settings.device_pool_params for name in parameter_names(cls))


def is_device_pool(cls: ClassInfo, settings: Settings) -> bool:
    names = parameter_names(cls)
    return (
        not is_host_pool(cls, settings)
        and any(n in settings.token_params for n in names)
        and any(n in settings.layer_params for n in names)
    )


def _device_annotation(cls: ClassInfo, settings: Settings) -> str | None:
    for param in constructor_parameters(cls):
        if param.name.value in settings.device_pool_params and param.annotation is not None:
            annotation = param.annotation.annotation
            name = dotted(annotation)
            if name is None:  # "KVCache" as a string, Optional[KVCache] ...
                text = cls.module.parsed.code(annotation).strip("\"' ")
                name = text.removeprefix("Optional[").removesuffix("]").strip("\"' ")
            return name
    return None


def _annotation_owner(cls: ClassInfo) -> ClassInfo:
    """The class in the MRO whose __init__ declares the constructor (where the annotation is)."""
    init = cls.find_method("__init__")
    return init.owner if init is not None and init.owner is not None else cls


def catalog(index: ProjectIndex, settings: Settings) -> PoolCatalog:
    classes = sorted(index.all_classes(), key=lambda c: (c.module.path, c.qualname))
    concrete = [c for c in classes if not c.is_abstract()]
    devices = [c for c in concrete if is_device_pool(c, settings)]
    hosts = [c for c in concrete if is_host_pool(c, settings)]
    pairs: list[Pair] = []
    unresolved: list[Unknown] = []
    by_name: dict[str, list[ClassInfo]] = {}
    for cls in classes:
        by_name.setdefault(cls.name, []).append(cls)
        by_name.setdefault(cls.qualname, []).append(cls)
    for host in hosts:
        configured = settings.pairs.get(host.name) or settings.pairs.get(host.qualname)
        if configured is not None:  # the project's config decides, not the annotation
            for device_name in configured:
                matches = [d for d in by_name.get(device_name, []) if d in devices]
                if not matches:
                    unresolved.append(
                        Unknown(
                            f"pairs.{host.name}: no device pool class {device_name!r} in the tree",
                            host.location,
                        )
                    )
                for device in matches:
                    pairs.append(Pair(host, device, "configured in [tool.layout-audit.pairs]"))
            continue
        annotation = _device_annotation(host, settings)
        owner = _annotation_owner(host)
        if annotation is None:
            unresolved.append(
                Unknown(
                    f"host pool {host.name}: device pool parameter has no annotation to pair by",
                    host.location,
                )
            )
            continue
        base = index.resolve_static(owner.module, annotation)
        if not isinstance(base, ClassInfo):
            unresolved.append(
                Unknown(
                    f"host pool {host.name}: annotation {annotation!r} is not a class in the audited tree",
                    host.location,
                )
            )
            continue
        for candidate in index.all_subclasses(base):
            if candidate in devices:
                pairs.append(
                    Pair(host, candidate, f"annotation {annotation} on {owner.name}.__init__")
                )
    return PoolCatalog(devices, hosts, pairs, unresolved)
