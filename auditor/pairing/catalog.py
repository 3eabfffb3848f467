"""Stage 6: find device pools and host mirrors, and pair each host with the devices it receives.

Which classes are pools is pools.py's; how a host is paired is the strategies' (strategies.py),
asked in precedence order: the config (`[tool.layout-audit.pairs]`), the host's construction
sites (sites.py: the devices the code can hand it there), a record host's call (none in the
audited paths: unresolved), the device parameter's annotation; the first that claims a host
decides its pairs. Each pair carries its evidence (evidence.py).
"""

from __future__ import annotations

import ast
import re

from auditor.evaluation import buffer_roles, forked
from auditor.evaluation.evaluate import Evaluation
from auditor.evaluation.matrix import parameter_names
from auditor.evaluation.roles import RoleBook
from auditor.frontend import walk
from auditor.frontend.behaviour import counts_no_layers
from auditor.frontend.index import ClassInfo, ProjectIndex
from auditor.frontend.parse import ParsedModule
from auditor.frontend.scope import class_node, cpython_tree
from auditor.interpret.values import Unknown
from auditor.pairing.evidence import Pair
from auditor.pairing.pool_catalog import PoolCatalog
from auditor.pairing.pools import buffer_names, is_device_pool, is_host_pool, is_record_host
from auditor.pairing.siblings import sibling_pairs
from auditor.pairing.sites import find_sites
from auditor.pairing.sized_by_device import sized_by_device
from auditor.pairing.strategies import (
    AnnotationPairs,
    ConfiguredPairs,
    HostCase,
    RecordPairs,
    SitePairs,
    Strategy,
)
from auditor.pairing.typed import TypedDevices, annotation_devices, record_producers
from auditor.settings import Settings


def catalog(
    index: ProjectIndex, settings: Settings, parsed: list[ParsedModule] | None = None
) -> PoolCatalog:
    """Device pools, host pools and their pairs. With `parsed` (every discovered file), hosts
    are paired where the code builds them; without, by configuration and annotation only."""
    classes = sorted(index.all_classes(), key=lambda c: (c.module.path, c.qualname))
    trees: dict = {}
    book = RoleBook(index, settings, trees)
    book.parsed = parsed  # (the calls building a pool say what an untyped config object is)
    devices, hosts, not_hosts = _pools(classes, settings, book, trees)
    configured = ConfiguredPairs(settings, classes, devices)
    site_hosts = [h for h in hosts if not configured.configured(h)]
    device_params = list(settings.device_pool_params)
    device_params += [r.parameter for r in book.hosts.values() if r.parameter not in device_params]
    sites, searched = (
        find_sites(index, parsed, site_hosts, device_params, settings.buffer_info_params)
        if parsed is not None
        else ([], set())
    )

    def read_types(host: ClassInfo, record: bool) -> TypedDevices:
        if record:
            return record_producers(index, host, devices, settings, trees)
        return annotation_devices(index, host, devices, settings, book, trees)

    strategies: list[Strategy] = [configured, SitePairs(devices), RecordPairs(), AnnotationPairs()]
    pairs: list[Pair] = []
    unresolved: list[Unknown] = []
    unpaired: list[tuple[ClassInfo, str]] = []
    by_device: list[tuple[ClassInfo, str]] = []
    for host in hosts:
        written = [s for s in sites if s.host is host]
        case = HostCase(host, written, is_record_host(host, settings), read_types)
        claim = next(c for c in (s.claim(case) for s in strategies) if c is not None)
        pairs.extend(claim.pairs)
        unresolved.extend(claim.unresolved)
        if claim.unpaired is not None:
            derived = _sized_by_device(host, settings, book, trees)
            if derived is not None:
                by_device.append((host, derived))
            else:
                unpaired.append((host, claim.unpaired))
    if parsed is not None:  # disaggregated siblings: two devices built side by side
        pairs.extend(sibling_pairs(index, parsed, devices, hosts, pairs, book, trees))
    listed = {id(c) for c, _ in not_hosts} | {id(c) for c, _ in unpaired + by_device}
    unpaired.extend(_host_kin(classes, hosts, devices, listed))
    found = PoolCatalog(
        devices,
        hosts,
        pairs,
        unresolved,
        sites,
        not_hosts,
        unpaired,
        searched=sorted(searched),
        not_devices=_counted_off_objects(classes, devices, hosts, book),
        by_device=by_device,
    )
    found.roles = book
    return found


def _host_kin(
    classes: list[ClassInfo], hosts: list[ClassInfo], devices: list[ClassInfo], listed: set
) -> list[tuple[ClassInfo, str]]:
    """Concrete classes with a constructor of their own deriving from a base that two host
    pools or more derive from (SGLang's `HostKVCache`), that are neither hosts, device pools
    nor listed already: host pools the audit cannot pair (they take a device's buffers or a
    size, not a device pool: 0.5.23's `DeepSeekV4PagedHostPool(pool_name, device_buffers,
    item_bytes, ...)`). Never paired, and said so: a green run must not hide them."""
    known = {id(c) for c in (*hosts, *devices)} | listed
    shared: dict[int, tuple[ClassInfo, set[str]]] = {}
    for host in hosts:
        for base in host.mro()[1:]:
            shared.setdefault(id(base), (base, set()))[1].add(host.name)
    shared = {key: value for key, value in shared.items() if len(value[1]) >= 2}
    found = []
    for cls in classes:
        if id(cls) in known or id(cls) in shared or "__init__" not in cls.methods:
            continue
        if cls.is_abstract():
            continue
        base = next((b for b in cls.mro()[1:] if id(b) in shared), None)
        if base is None:
            continue
        kin = ", ".join(sorted(shared[id(base)][1])[:3])
        found.append(
            (
                cls,
                f"derives from {base.name}, as the host pools {kin} do, but takes no device pool "
                f"(parameters: {', '.join(parameter_names(cls)) or 'none'}): nothing pairs it, "
                "its buffers are compared with nothing",
            )
        )
    return found


def _sized_by_device(
    host: ClassInfo, settings: Settings, book: RoleBook, trees: dict
) -> str | None:
    """Why a host nothing pairs is sized by the device it receives (sized_by_device.py)."""
    role = book.hosts.get(id(host))
    names = parameter_names(host)
    parameter = (
        role.parameter
        if role is not None
        else next((n for n in names if n in settings.device_pool_params), None)
    )
    return sized_by_device(host, parameter, trees) if parameter is not None else None


def _pools(
    classes: list[ClassInfo], settings: Settings, book: RoleBook, trees: dict
) -> tuple[list[ClassInfo], list[ClassInfo], list[tuple[ClassInfo, str]]]:
    """The device pools; the host pools (classes taking a device pool, by the pack's names or
    by what they do with it, that allocate a buffer of a device pool's name); and the classes
    taking a device pool that allocate none (not mirrors: they stage or broadcast its data)."""
    concrete = [c for c in classes if not c.is_abstract()]
    # a base its subclasses complete (RoleBook.unfinished) raises when built: no device
    devices = [c for c in concrete if is_device_pool(c, settings, book) and not book.unfinished(c)]
    counts = frozenset(settings.token_params) | frozenset(settings.layer_names())
    counts |= {name for d in devices for name in book.tokens(d) + book.layers(d)}
    device_buffers: set[str] = set(settings.buffer_map)
    for device in devices:
        device_buffers |= buffer_names(device, trees, counts)
    renamed: set[int] = set()  # hosts mirroring under other names (checks/wording._joined)
    for cls in concrete:  # hosts the pack's names do not describe: by what they take
        if book.named(cls):
            continue
        others = [d for d in devices if d is not cls]
        buffers = set(settings.buffer_map).union(*(buffer_names(d, trees, counts) for d in others))
        role = book.find_host_role(cls, others, buffers)
        facts = book.facts(cls) if role is not None else None
        if facts is not None and facts.allocated & buffers:  # it allocates mirrors itself
            book.add_host(cls, role)
        elif (  # typed with a device class, allocating storage sized off it under other
            facts is not None  # names (`keys`, `values` for the device's stacked `kv`)
            and role.annotation is not None
            and facts.allocated
            and _read_off(role.parameter, facts, facts.sized_by)
            and _read_off(role.parameter, facts, facts.per_layer | facts.per_item)  # per layer
            and not _pack_device(book, cls, role.annotation)  # the pack's hosts have its names
            and not _built_by_a_pool(cls, others, trees)
        ):
            book.add_host(cls, role)
            renamed.add(id(cls))
        elif facts is not None and _renamed_mirror(book, cls, role, facts, trees, counts, others):
            book.add_host(cls, role)  # typed with a device class whose buffers its own
            renamed.add(id(cls))  # names say it holds (`secondary_pool` of `primary_pool`)
    devices = [d for d in devices if id(d) not in book.hosts]
    hosts: list[ClassInfo] = []
    not_hosts: list[tuple[ClassInfo, str]] = []
    for cls in concrete:
        if not is_host_pool(cls, settings, book):
            continue
        own = buffer_names(cls, trees, counts)
        if (
            own & device_buffers
            or id(cls) in renamed
            or _stacks_a_device(own, devices, trees, counts)
        ):
            hosts.append(cls)
        else:
            not_hosts.append(
                (cls, "takes a device pool but allocates no buffer of a device pool's name")
            )
    return devices, hosts, not_hosts


def _read_off(parameter: str, facts, names: set[str]) -> bool:
    """Is `parameter` among `names`, itself or an attribute read off it (`gpu.num_layers`,
    named under its object's path where it is read as a config object)?"""
    if parameter in names:
        return True
    path = facts.objects.get(parameter)
    return path is not None and any(n.startswith(path + ".") for n in names)


def _stacks_a_device(own: set[str], devices: list[ClassInfo], trees: dict, counts) -> bool:
    """Does a host (by the pack's names) keep one storage named the whole KV cache (`kv_data`,
    `kv_buffer`) where a device keeps K and V apart (`k_buffer`, `v_buffer`)? The two summed
    are its counterpart (checks/wording._kept_whole), as SGLang's MHA host keeps its device's."""
    if len(own) != 1:
        return False
    whole = next(iter(own))
    return any(
        buffer_roles.kept_whole(whole, sorted(buffer_names(d, trees, counts))) for d in devices
    )


def _renamed_mirror(
    book: RoleBook, cls: ClassInfo, role, facts, trees: dict, counts, devices: list
) -> bool:
    """Is the class typed with a device class of the tree (not one the pack describes), or
    untyped reading buffers off the parameter that only such classes hold (`gpu_store.
    key_cache[0].shape`), whose buffers its own allocated buffers pair with one for one by
    what their names say they hold (buffer_roles.matching: `secondary_pool` with
    `primary_pool`, `k_host` with `key_cache`), its layers its device's (a pool counting
    layers of its own, a draft's, is a pool beside it)?"""
    annotation = role.annotation
    if not facts.allocated or (annotation is not None and _pack_device(book, cls, annotation)):
        return False
    own = book.inferred(cls)
    if own is not None and own.layers.partition(".")[0] != role.parameter:
        return False
    if annotation is None:  # untyped: the devices holding every buffer it reads off it
        if not _shaped_after(facts, role.parameter):
            return False
        held = [(d, buffer_names(d, trees, counts)) for d in devices if d is not cls]
        read = {name for name in role.reads if any(name in names for _, names in held)}
        candidates = [names for _, names in held if read and read <= names]
    else:
        device = book.index.resolve_static(cls.module, annotation)
        if not isinstance(device, ClassInfo) or device is cls:
            return False
        candidates = [buffer_names(device, trees, counts)]
    if not candidates or any(
        buffer_roles.matching(sorted(facts.allocated), sorted(names)) is None
        for names in candidates
    ):
        return False
    return not _built_by_a_pool(cls, devices, trees)  # (a pool's helper: its storage's)


def _shaped_after(facts, parameter: str) -> bool:
    """Is every allocation of the class shaped after the object it receives by `parameter`
    but for one dimension, its own token count (`(len(gpu.key_cache), slots, heads,
    head_dim)` of `_, heads, head_dim = gpu.key_cache[0].shape`)? A class sizing other
    dimensions by its own parameters (a draft's heads, a send buffer regrouping heads across
    ranks) is no mirror of it, whatever its buffers are called."""
    if not facts.shapes:
        return False
    for dims in facts.shapes:
        if parameter not in set().union(*dims):
            return False
        if sum(1 for dim in dims if dim - {parameter}) > 1:
            return False
    return True


def _pack_device(book: RoleBook, cls: ClassInfo, annotation: str) -> bool:
    """Is the class a host parameter is annotated with a device the pack's names describe?
    (Its mirrors are the pack's hosts; a helper of it under other names, SGLang's index-K
    caches, is none.)"""
    found = book.index.resolve_static(cls.module, annotation)
    return isinstance(found, ClassInfo) and book.named_device(found)


def _built_by_a_pool(cls: ClassInfo, devices: list[ClassInfo], trees: dict) -> bool:
    """Does a device pool build the class with itself (`IndexKeyCache(self, ...)` in its
    constructor)? Then it is the pool's helper, whose storage the pool's evaluation measures,
    never a mirror of it."""
    for device in devices:
        for klass in device.mro():
            tree = cpython_tree(klass.module, trees)
            node = class_node(tree, klass) if tree is not None else None
            for call in walk.nodes(node) if node is not None else ():
                if (
                    isinstance(call, ast.Call)
                    and (
                        call.func.id
                        if isinstance(call.func, ast.Name)
                        else getattr(call.func, "attr", None)
                    )
                    == cls.name
                    and any(
                        isinstance(a, ast.Name) and a.id == "self"
                        for a in [*call.args, *(k.value for k in call.keywords)]
                    )  # (`Fp8Cache(self)`, `Fp8Cache(pool=self)`)
                ):
                    return True
    return False


def _counted_off_objects(
    classes: list[ClassInfo], devices: list[ClassInfo], hosts: list[ClassInfo], book: RoleBook
) -> list[tuple[ClassInfo, str]]:
    """Classes neither pool that allocate per layer over a count read off an object their
    constructor takes (`range(cfg.num_layers)`, a leading `cfg.num_layers` dimension): counts
    are constructor parameters to the audit, so such a pool is not audited; say so. A helper
    reading the count off a pool (`IndexKeyCache(pool: DSATokenToKVPool)`, whose buffers its
    pool's evaluation measures) is not one."""
    pools = {id(c) for c in devices} | {id(c) for c in hosts}
    pool_names = {c.name for c in devices} | {c.name for c in hosts}
    found = []
    for cls in classes:
        if id(cls) in pools or cls.is_abstract():
            continue
        facts = book.facts(cls)
        paths = sorted(p for p in facts.range_paths if not counts_no_layers(p)) if facts else []
        if facts is None or not paths or not facts.allocated:
            continue  # (a leading `kv_pool.head_num` counts heads, `pool.size` tokens)
        if any(_annotated_with(book.facts(k), pool_names) for k in cls.mro()):
            continue  # a pool's helper, or a subclass of one (LayerSplitIndexKeyCache)
        found.append((cls, ", ".join(paths)))
    return found


def _annotated_with(facts, names: set[str]) -> bool:
    """Does a constructor parameter's annotation name one of these classes?"""
    if facts is None:
        return False
    annotations = " ".join(p.annotation or "" for p in facts.params.values())
    return bool(set(re.findall(r"\w+", annotations)) & names)


def evaluate_pairs(
    pools: PoolCatalog, evaluator, parsed: list[ParsedModule] = (), jobs: int = 1
) -> list[tuple[Pair, Evaluation]]:
    """Each pair evaluated, in `jobs` processes where it pays (evaluation/forked.py); sites
    that write the same arguments share one evaluation."""
    numbers: dict[tuple, int] = {}
    tasks = []
    for pair in pools.pairs:
        if _evaluation_key(pair) not in numbers:
            numbers[_evaluation_key(pair)] = len(tasks)
            tasks.append((pair.device, pair.host, pair.site))
    evaluations = forked.evaluate_all(tasks, evaluator, list(parsed), jobs)
    return [(pair, evaluations[numbers[_evaluation_key(pair)]]) for pair in pools.pairs]


def _evaluation_key(pair: Pair) -> tuple:
    """Pairs with one key share an evaluation: same pools, sites writing the same arguments."""
    return (id(pair.host), id(pair.device), pair.site.signature() if pair.site else None)
