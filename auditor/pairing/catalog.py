"""Stage 6: find device pools and host mirrors, and pair each host with the devices it receives.

A device pool is a concrete class whose constructor takes a token count and a layer count.
A host pool is a concrete class whose constructor takes a device pool and that allocates an
attribute of a name a device pool also allocates (or a `buffer-map` name): a class taking a device pool to stage or
broadcast its data is not a mirror. Pairs come, in this order of precedence, from the config
(`[tool.layout-audit.pairs]`), from the host's construction sites (sites.py: the devices that
the code can hand it there), or, for a host built nowhere in the audited paths, from the device
parameter's annotation (every concrete device pool below that class).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from auditor.evaluation.evaluate import Evaluation
from auditor.evaluation.matrix import constructor_parameters, parameter_names
from auditor.evaluation.measure import looks_like_buffer
from auditor.evaluation.roles import RoleBook
from auditor.evaluation.site_run import runnable
from auditor.frontend.index import ClassInfo, ProjectIndex, dotted
from auditor.frontend.parse import ParsedModule
from auditor.frontend.scope import class_node, code_of, cpython_tree
from auditor.interpret.values import Unknown
from auditor.pairing.sites import ConstructionSite, find_sites
from auditor.settings import Settings


@dataclass(frozen=True)
class Pair:
    host: ClassInfo
    device: ClassInfo
    evidence: str  # how the pair was decided, shown to users
    site: ConstructionSite | None = None  # the call that builds the host, when there is one
    detail: dict = field(default_factory=dict, compare=False, hash=False)  # evidence as data


@dataclass
class PoolCatalog:
    devices: list[ClassInfo]
    hosts: list[ClassInfo]
    pairs: list[Pair]
    unresolved: list[Unknown]
    sites: list[ConstructionSite] = field(default_factory=list)
    not_hosts: list[tuple[ClassInfo, str]] = field(default_factory=list)  # (class, why)
    searched: list[str] = field(default_factory=list)  # names sought in every file's bytes
    # Each pool's token, layer and device-pool parameters: not a field, so a catalog is stored
    # in the cache without it (what it holds is in the stored evaluations; None when loaded).
    roles = None

    def add_declared(self, pairs: list[Pair]) -> None:
        """Pairs a device pool declares in data (declared.py): counted like the others."""
        self.pairs.extend(pairs)
        self.hosts.extend(p.host for p in pairs if p.host not in self.hosts)


def is_host_pool(cls: ClassInfo, settings: Settings, book: RoleBook | None = None) -> bool:
    names = parameter_names(cls)
    if book is not None and id(cls) in book.hosts:
        return True
    return any(n in settings.device_pool_params for n in names) or is_record_host(cls, settings)


def is_record_host(cls: ClassInfo, settings: Settings) -> bool:
    """A host built from a record of the device pool's buffers (`buffer_info: MLABufferInfo`)
    rather than from the device pool itself."""
    names = parameter_names(cls)
    return not any(n in settings.device_pool_params for n in names) and any(
        n in settings.buffer_info_params for n in names
    )


def is_device_pool(cls: ClassInfo, settings: Settings, book: RoleBook | None = None) -> bool:
    """Named so by the pack (a token and a layer parameter), or allocating per layer and per
    token from its parameters (roles.py), and not a host."""
    if is_host_pool(cls, settings, book):
        return False
    names = parameter_names(cls)
    if any(n in settings.token_params for n in names) and any(
        n in settings.layer_params for n in names
    ):
        return True
    return book is not None and book.inferred(cls) is not None


def _device_annotation(
    cls: ClassInfo, settings: Settings, book: RoleBook | None = None
) -> str | None:
    params = book.device_params(cls) if book is not None else settings.device_pool_params
    for param in constructor_parameters(cls):
        if param.name.value in params and param.annotation is not None:
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


def buffer_names(
    cls: ClassInfo, trees: dict | None = None, counts: frozenset = frozenset()
) -> set[str]:
    """Attributes a class (its MRO) may hold tensors in: `self.x = <call>` (`torch.zeros(...)`,
    `self.init_kv_buffer()`, `alloc(...)`), `self.x = [... for ...]`, and any `self.x_buffer`;
    `counts` (token and layer counts) excluded."""
    trees = {} if trees is None else trees
    names: set[str] = set()
    for klass in cls.mro():
        names |= _own_buffer_names(klass, trees)
    return names - counts


_ALLOCATING = (ast.Call, ast.ListComp, ast.List, ast.GeneratorExp)


def _own_buffer_names(cls: ClassInfo, trees: dict) -> set[str]:
    """Tensor-like attributes the class's own methods set, read from CPython's syntax tree
    (a libcst visit of every method of every pool costs seconds on a whole engine)."""
    key = ("buffers", id(cls))
    if key in trees:
        return trees[key]
    tree = cpython_tree(cls.module, trees)
    node = class_node(tree, cls) if tree is not None else None
    names: set[str] = set()
    for item in ast.walk(node) if node is not None else ():
        if isinstance(item, (ast.Assign, ast.AnnAssign)):
            targets = item.targets if isinstance(item, ast.Assign) else [item.target]
            allocating = isinstance(item.value, _ALLOCATING)
            for target in targets:
                for part in ast.walk(target):
                    if (
                        isinstance(part, ast.Attribute)
                        and isinstance(part.value, ast.Name)
                        and part.value.id == "self"
                        and (allocating or looks_like_buffer(part.attr))
                    ):
                        names.add(part.attr)
        elif (
            isinstance(item, ast.Call)
            and isinstance(item.func, ast.Name)
            and item.func.id == "setattr"
            and len(item.args) >= 3
            and isinstance(item.args[0], ast.Name)
            and item.args[0].id == "self"
            and isinstance(item.args[1], ast.Constant)
            and isinstance(item.args[1].value, str)
            and (isinstance(item.args[2], _ALLOCATING) or looks_like_buffer(item.args[1].value))
        ):
            names.add(item.args[1].value)
    trees[key] = names
    return names


def _annotation_pairs(
    index: ProjectIndex,
    host: ClassInfo,
    devices: list[ClassInfo],
    settings: Settings,
    book: RoleBook | None = None,
    trees: dict | None = None,
) -> tuple[list[ClassInfo], str | Unknown]:
    """Devices below the class the host's device parameter is annotated with, and the evidence
    text (or why there is none). An untyped parameter seen by behaviour: the devices holding
    every buffer the host reads off it."""
    annotation = _device_annotation(host, settings, book)
    owner = _annotation_owner(host)
    role = book.hosts.get(id(host)) if book is not None else None
    if annotation is None and role is not None and role.annotation is None:
        held = {id(d): buffer_names(d, trees) for d in devices}
        wanted = role.reads & set().union(*held.values())
        found = [d for d in devices if wanted and wanted <= held[id(d)]]
        if found:
            shown = ", ".join(f"{role.parameter}.{a}" for a in sorted(wanted))
            return found, f"use of {shown} in {host.name} (the device pools holding them)"
    if annotation is None:
        return [], Unknown(
            f"host pool {host.name}: device pool parameter has no annotation to pair by",
            host.location,
        )
    base = index.resolve_static(owner.module, annotation)
    if not isinstance(base, ClassInfo):
        return [], Unknown(
            f"host pool {host.name}: annotation {annotation!r} is not a class in the audited tree",
            host.location,
        )
    found = [c for c in index.all_subclasses(base) if c in devices]
    return found, f"annotation {annotation} on {owner.name}.__init__"


def _record_producers(
    index: ProjectIndex, host: ClassInfo, devices: list[ClassInfo], settings: Settings, trees
) -> tuple[list[ClassInfo], str | Unknown]:
    """Devices whose methods (their MRO) build a record of a class the host's record parameter
    is annotated with (`MLABufferInfo(...)`), and the evidence text (or why there are none)."""
    owner = _annotation_owner(host)
    param = next(
        (p for p in constructor_parameters(host) if p.name.value in settings.buffer_info_params),
        None,
    )
    if param is None or param.annotation is None:
        return [], Unknown(
            f"host pool {host.name}: record parameter has no annotation to pair by",
            host.location,
        )
    text = owner.module.parsed.code(param.annotation.annotation)
    records = {}
    for word in re.findall(r"[A-Za-z_][\w.]*", text):
        found = index.resolve_static(owner.module, word)
        if isinstance(found, ClassInfo):
            records[found.name] = found
    if not records:
        return [], Unknown(
            f"host pool {host.name}: annotation {text.strip()!r} names no record class "
            "of the audited tree",
            host.location,
        )
    producers = [d for d in devices if _builds_any(d, set(records), trees)]
    names = " | ".join(sorted(records))
    if not producers:
        return [], Unknown(
            f"host pool {host.name}: no device pool builds a {names} record",
            host.location,
        )
    return producers, f"device pools that build {names} (annotation on {owner.name}.__init__)"


def _builds_any(device: ClassInfo, names: set[str], trees: dict) -> bool:
    """Does a method of the device (its MRO) call a class of these names?"""
    for klass in device.mro():
        key = ("builds", id(klass))
        if key not in trees:
            tree = cpython_tree(klass.module, trees)
            node = class_node(tree, klass) if tree is not None else None
            called = set()
            for item in ast.walk(node) if node is not None else ():
                if isinstance(item, ast.Call):
                    func = item.func
                    if isinstance(func, ast.Name):
                        called.add(func.id)
                    elif isinstance(func, ast.Attribute):
                        called.add(func.attr)
            trees[key] = called
        if trees[key] & names:
            return True
    return False


def _site_evidence(site: ConstructionSite) -> tuple[str, dict]:
    if site.via_record:
        parts = [f"buffer info via call site {site.where()}"]
        parts.append(f"{site.device_parameter}={code_of(site.arguments[site.device_parameter])}")
    else:
        parts = [f"call site {site.where()}"]
    if site.how != "direct call":
        parts.append(site.how)
    guards = list(dict.fromkeys(g.describe() for g in site.guards if g.subject == site.device_text))
    if guards:
        parts.append("guards: " + ", ".join(guards))
    if site.declared is not None or site.holds is not None:
        parts.append(f"declared: {site.declared_from}")
    if runnable(site):  # its dicts, helpers and factories are followed by running it
        name = site.function.rsplit(".", 1)[-1]
        parts.append(f"arguments as {name}() computes them, {site.device_text} = the device pool")
    elif site.unfollowed:
        parts.append(site.unfollowed)
    location = site.location
    detail = {
        "kind": "buffer info" if site.via_record else "call site",
        "site": {
            "path": location.path,
            "line": location.line,
            "column": location.column,
            "function": site.function,
            "how": site.how,
        },
        "device_argument": site.device_text,
        "guards": guards,
        "declared": site.declared_from or None,
        "arguments": sorted(site.arguments),
    }
    return "; ".join(parts), detail


def _pairs_at_sites(
    host: ClassInfo,
    written: list[ConstructionSite],
    annotated: list[ClassInfo],
    evidence: str | Unknown,
    devices: list[ClassInfo],
) -> tuple[list[Pair], list[Unknown], str | None]:
    """Pairs of a host built at these sites; calls that cannot build it (unresolved); and, when
    nothing says which devices it receives, why it is not taken for a host pool."""
    pairs: list[Pair] = []
    problems: list[Unknown] = []
    for site in written:
        if site.problems:  # the call would raise TypeError: nothing is built there
            problems.extend(
                Unknown(f"call site {site.where()}: {problem}", site.location)
                for problem in site.problems
            )
            continue
        if site.via_record and site.record_problem is not None:
            problems.append(
                Unknown(f"call site {site.where()}: {site.record_problem}", site.location)
            )
            continue
        if site.via_record and isinstance(evidence, Unknown):
            text = f"call site {site.where()}: {evidence.reason}"
            problems.append(Unknown(text, site.location, cause=evidence))
            continue
        if isinstance(evidence, Unknown) and not site.narrows():
            continue  # neither the annotation nor the site says which devices come
        candidates = annotated if not isinstance(evidence, Unknown) else devices
        text, detail = _site_evidence(site)
        if not isinstance(evidence, Unknown):
            detail["annotation"] = evidence
        admitted = [Pair(host, d, text, site, detail) for d in candidates if site.admits(d)]
        if site.via_record and not admitted:  # say so: the record's maker is not known here
            said = site.declared_from or ", ".join(g.describe() for g in site.guards) or "?"
            problems.append(
                Unknown(
                    f"call site {site.where()}: none of the {evidence} can be "
                    f"{site.device_text} here ({said})",
                    site.location,
                )
            )
        pairs.extend(admitted)
    why_not = None
    if not pairs and isinstance(evidence, Unknown):
        why = evidence.reason.removeprefix(f"host pool {host.name}: ")
        why_not = f"{why}, and no call site says which device pools it receives"
    return pairs, problems, why_not


def catalog(
    index: ProjectIndex, settings: Settings, parsed: list[ParsedModule] | None = None
) -> PoolCatalog:
    """Device pools, host pools and their pairs. With `parsed` (every discovered file), hosts
    are paired where the code builds them; without, by configuration and annotation only."""
    classes = sorted(index.all_classes(), key=lambda c: (c.module.path, c.qualname))
    concrete = [c for c in classes if not c.is_abstract()]
    trees: dict = {}
    book = RoleBook(index, settings, trees)
    devices = [c for c in concrete if is_device_pool(c, settings, book)]
    counts = frozenset(settings.token_params) | frozenset(settings.layer_params)
    counts |= {name for d in devices for name in book.tokens(d) + book.layers(d)}
    device_buffers: set[str] = set(settings.buffer_map)
    for device in devices:
        device_buffers |= buffer_names(device, trees, counts)
    for cls in concrete:  # hosts the pack's names do not describe: by what they take
        if book.named(cls):
            continue
        others = [d for d in devices if d is not cls]
        buffers = set(settings.buffer_map).union(*(buffer_names(d, trees, counts) for d in others))
        role = book.find_host_role(cls, others, buffers)
        facts = book.facts(cls) if role is not None else None
        if facts is not None and facts.allocated & buffers:  # it allocates mirrors itself
            book.add_host(cls, role)
    devices = [d for d in devices if id(d) not in book.hosts]
    hosts: list[ClassInfo] = []
    not_hosts: list[tuple[ClassInfo, str]] = []
    for cls in concrete:
        if not is_host_pool(cls, settings, book):
            continue
        if buffer_names(cls, trees, counts) & device_buffers:
            hosts.append(cls)
        else:
            not_hosts.append(
                (cls, "takes a device pool but allocates no buffer of a device pool's name")
            )
    pairs: list[Pair] = []
    unresolved: list[Unknown] = []
    by_name: dict[str, list[ClassInfo]] = {}
    for cls in classes:
        by_name.setdefault(cls.name, []).append(cls)
        by_name.setdefault(cls.qualname, []).append(cls)
    configured_hosts = [
        h for h in hosts if (settings.pairs.get(h.name) or settings.pairs.get(h.qualname))
    ]
    site_hosts = [h for h in hosts if h not in configured_hosts]
    device_params = list(settings.device_pool_params)
    device_params += [r.parameter for r in book.hosts.values() if r.parameter not in device_params]
    sites, searched = (
        find_sites(index, parsed, site_hosts, device_params, settings.buffer_info_params)
        if parsed is not None
        else ([], set())
    )
    for host in hosts:
        configured = settings.pairs.get(host.name) or settings.pairs.get(host.qualname)
        if configured is not None:  # the project's config decides, not the code
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
                    pairs.append(
                        Pair(
                            host,
                            device,
                            "configured in [tool.layout-audit.pairs]",
                            detail={"kind": "configured"},
                        )
                    )
            continue
        record_host = is_record_host(host, settings)
        if record_host:
            annotated, evidence = _record_producers(index, host, devices, settings, trees)
        else:
            annotated, evidence = _annotation_pairs(index, host, devices, settings, book, trees)
        written = [s for s in sites if s.host is host]
        if written:  # built in the audited paths: the annotation is not used
            found, problems, why_not = _pairs_at_sites(host, written, annotated, evidence, devices)
            pairs.extend(found)
            unresolved.extend(problems)
            if why_not is not None:
                not_hosts.append((host, why_not))
            continue
        if isinstance(evidence, Unknown):
            unresolved.append(evidence)
            continue
        if record_host:  # how the record is read off the device is said only at a call
            unresolved.append(
                Unknown(
                    f"host pool {host.name} is built from a record of a device pool's buffers "
                    "and no call site in the audited paths says which pool makes it",
                    host.location,
                )
            )
            continue
        for device in annotated:
            pairs.append(
                Pair(
                    host,
                    device,
                    f"{evidence} (no construction site in the audited paths)",
                    detail={"kind": "annotation", "annotation": evidence},
                )
            )
    dropped = {id(cls) for cls, _ in not_hosts}
    hosts = [h for h in hosts if id(h) not in dropped]
    found = PoolCatalog(devices, hosts, pairs, unresolved, sites, not_hosts, sorted(searched))
    found.roles = book
    return found


def evaluate_pairs(pools: PoolCatalog, evaluator) -> list[tuple[Pair, Evaluation]]:
    """Each pair evaluated; sites that write the same arguments share one evaluation."""
    done: dict[tuple, Evaluation] = {}
    evaluated = []
    for pair in pools.pairs:
        key = (id(pair.host), id(pair.device), pair.site.signature() if pair.site else None)
        if key not in done:
            done[key] = evaluator.evaluate(pair.device, pair.host, pair.site)
        evaluated.append((pair, done[key]))
    return evaluated
