"""Build a device pool (and optionally its host mirror) at config points and measure buffers."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import libcst as cst

from auditor.engines import post_build_hooks
from auditor.evaluation import buffer_roles
from auditor.evaluation.anchors import stand_in_anchors
from auditor.evaluation.first_builds import FirstBuild, FirstBuilds
from auditor.evaluation.lazy import run_lazy_allocators
from auditor.evaluation.matrix import (
    Dimension,
    dimensions,
    explore,
    host_values_of,
    object_paths,
    parameter_names,
    platform_of,
    stand_in_sample,
)
from auditor.evaluation.measure import (
    BufferFigure,
    buffers_of,
    held_from,
    looks_like_buffer,
    measure,
    row_counts,
    tokens_per_unit,
)
from auditor.evaluation.roles import RoleBook
from auditor.evaluation.site_run import (
    OtherHost,
    callers_defaults,
    callers_objects,
    composed_run,
    device_call_values,
    other_host,
    run_defaults,
    run_device,
    run_parameters,
    run_site,
    runnable,
    stand_in_paths,
)
from auditor.evaluation.size_claims import claimed_size
from auditor.evaluation.slots import per_slot, slot_ratio
from auditor.frontend.behaviour import UNSAID_BLOCK, names_bytes
from auditor.frontend.index import ClassInfo, ProjectIndex
from auditor.frontend.scope import NamesRead, code_of
from auditor.interpret.control import BudgetExceeded, Infeasible
from auditor.interpret.environment import merge_unset, unset_note
from auditor.interpret.lanes import (
    LANES_STATS,
    Active,
    Diverged,
    StateChanged,
    TokenLanes,
    Watch,
    lane_view,
)
from auditor.interpret.machine import ConfigPoint, Interpreter, ModuleState, StandInSample
from auditor.interpret.namespaces import DEFERRED
from auditor.interpret.scopes import Frame
from auditor.interpret.values import (
    ConfigDependency,
    Instance,
    RuntimeObject,
    Unknown,
    Why,
    is_unknown,
)
from auditor.limits import DEFAULT_LIMITS, Limits
from auditor.progress import COUNTERS
from auditor.settings import Settings

if TYPE_CHECKING:  # a site is pairing's; evaluating reads its fields
    from auditor.pairing.sites import ConstructionSite

DEVICE_NAME = "__layout_audit_device_pool__"  # the device pool, inside a site's argument


class NotCompared(Exception):  # noqa: N818 - a signal
    """The host cannot be built at this point as the site builds it (its record is unknown)."""


@dataclass
class PointResult:
    """What one config point gave: figures per side, or why the point was skipped."""

    values: dict[str, Any]
    device: dict[str, BufferFigure] = field(default_factory=dict)
    host: dict[str, BufferFigure] = field(default_factory=dict)
    infeasible: Infeasible | None = None
    failure: Unknown | None = None
    host_claim: BufferFigure | None = None  # the host's own size per token (size_claims.py)
    # what the comparison at this point takes for granted: undecided tests taken toward the
    # construction site, a constructor assumed to accept (an undecided `raise`)
    assumed: list[str] = field(default_factory=list)
    # the host parameters the code passed, when the site was run to its call (site_run.py)
    passed: list[str] | None = None
    # the point was refused by a raise in the host's own constructor (or an in-tree base's)
    refused_by_host: bool = False
    # host attributes holding the device pool's own tensors: left out of `host` (no storage)
    held: list[str] = field(default_factory=list)


@dataclass
class Evaluation:
    """A device pool, or a (device, host) pair, evaluated across its config matrix."""

    device: ClassInfo
    host: ClassInfo | None
    points: list[PointResult]
    varied: list[str]
    truncated: bool
    site: ConstructionSite | None = None  # where the host is built; None: from the config
    # every config dimension the code read at some point (varied or not): a configured
    # dimension no evaluation reads is a setting that changes nothing (warned about)
    reads: frozenset[str] = frozenset()
    # parameters nothing gives a value that the figures hold for any value of (sampled)
    free: list[str] = field(default_factory=list)
    # values tried beyond the matrix because no point of it was feasible and the code compares
    # the dimension with them (`assert page_size == 128`): {name: values}
    demanded: dict[str, tuple] = field(default_factory=dict)
    # values the code demands that were not tried: over DEMANDED_PER_DIMENSION ({name: values})
    untried: dict[str, tuple] = field(default_factory=dict)
    # (buffer, free parameter): its two sides disagree at every sample of that parameter, so
    # the finding holds at the samples, not "for any value" (settle_free)
    apart: frozenset[tuple[str, str]] = frozenset()
    # the platform the device pool runs on (`[platforms.<name>]`) and its dimensions, or None
    platform: tuple[str, tuple[str, ...]] | None = None

    @property
    def feasible(self) -> list[PointResult]:
        return [p for p in self.points if p.infeasible is None and p.failure is None]


def _after_build(interpreter: Interpreter, pool: Instance) -> None:
    """Let each engine finish a built pool before it is measured (engines/base.py PostBuild),
    after the methods that allocate its buffers later have run (lazy.py)."""
    run_lazy_allocators(interpreter, pool)
    for hook in post_build_hooks():
        hook(interpreter, pool, looks_like_buffer)


# a factor a host's rows are computed with, by a name saying it sizes the host's tier
# (`host_ratio`, `hicache_ratio`, `host_to_device_ratio`, `swap_factor`); never a factor of
# what a row holds (`kv_factor`, a GQA group factor), which only a name could tell apart
_RATIO = re.compile(r"(^|_)(ratio|factor|multiplier)s?$", re.IGNORECASE)
_TIER = re.compile(r"(^|_)(host|cpu|swap|offload|spill|hicache|tier|mirror)(_|$)", re.IGNORECASE)


def _scaled_rows(roles: RoleBook, host_cls: ClassInfo) -> str | None:
    """The ratio a host's own row count multiplies its device's token count by
    (`self.slots = int(store.slots * cfg.host_ratio)`, then `(self.slots, ...)` in a shape,
    in any position): such a host holds that many rows per device token, each a token, and
    is measured per row it holds (as SGLang's hosts are, by the `size` they keep), not per
    device token. A product written into the shape itself is not such a count. None
    otherwise."""
    inferred = roles.inferred(host_cls)
    facts = roles.facts(host_cls)
    if inferred is None or inferred.tokens is None or inferred.block or facts is None:
        return None
    for dims, keys in zip(facts.shapes, facts.shape_keys):
        for dim, key in zip(dims, keys):
            if inferred.tokens not in dim or not (key or "").startswith("self."):
                continue
            ratios = sorted(
                n
                for n in dim - facts.divisors
                if _RATIO.search(last := n.rpartition(".")[2]) and _TIER.search(last)
            )
            if ratios:
                return ratios[0]
    return None


# the bytes a byte budget standing for the token count gives each token (`free_bytes //
# self.token_bytes()`): more than any row the sampled widths make, so the rows it buys
# follow the token count instead of rounding to none
BYTES_PER_ROW = 1 << 20


def byte_budgets(settings: Settings, token_names: list[str]) -> frozenset[str]:
    """The token parameters a class names for bytes (`free_bytes`, `budget`), not the pack's."""
    return frozenset(n for n in token_names if names_bytes(n) and n not in settings.token_params)


def build_counts(settings: Settings) -> list[tuple[int, int]]:
    """The (tokens, layers) of the builds measure.py reads: (s1,l1), (s2,l1), (s1,l2), (s2,l2),
    and a fifth at (s3,l2) that checks that bytes really are linear in tokens."""
    (t1, t2), (l1, l2) = settings.token_counts, settings.layer_counts
    return [(t1, l1), (t2, l1), (t1, l2), (t2, l2), (t2 + (t2 - t1), l2)]


def build_plan(settings: Settings, plan: str) -> list[tuple[Any, int, int]]:
    """The builds of one point as (tokens, layers, first token count): `build_counts` one by
    one ("one"), or as lanes (lanes.py), one build per layer count carrying its token counts
    ("lanes"), or the first layer count's builds one by one and the second's as lanes
    ("settled": for code whose first build changes module state, a cache it fills once)."""
    counts = build_counts(settings)
    if plan == "one":
        return [(tokens, layers, tokens) for tokens, layers in counts]
    grouped: dict[int, list[int]] = {}
    for tokens, layers in counts:
        grouped.setdefault(layers, []).append(tokens)
    builds: list[tuple[Any, int, int]] = []
    for position, (layers, tokens) in enumerate(grouped.items()):
        if plan == "settled" and position == 0:
            builds += [(t, layers, t) for t in tokens]
        else:
            builds.append((TokenLanes(tuple(tokens)), layers, tokens[0]))
    return builds


def each_count(*sides: list[tuple[Any, Any, int]]) -> tuple[list[tuple[Any, int, int]], ...]:
    """Builds one per token count, as measure.py reads them: a lanes build (its tokens are
    Lanes) gives one build per lane, the pools of one lane seeing each other (a host its
    device) as that lane's."""
    expanded: list[list[tuple[Any, int, int]]] = [[] for _ in sides]
    sides = tuple(side for side in sides if side)  # no host built: nothing to expand
    for position in range(len(sides[0]) if sides else 0):
        tokens, layers = sides[0][position][1], sides[0][position][2]
        if type(tokens) is not TokenLanes:
            for side, into in zip(sides, expanded):
                into.append(side[position])
            continue
        for lane, count in enumerate(tokens.items):
            memo: dict = {}
            for side, into in zip(sides, expanded):
                into.append((lane_view(side[position][0], lane, memo, True), count, layers))
    return tuple(expanded)


def with_counts(
    values: dict,
    token_names: list[str],
    tokens: Any,
    layer_names: list[str],
    layers: int,
    ids: frozenset[str] = frozenset(),
    pairs: frozenset[str] = frozenset(),
    budgets: frozenset[str] = frozenset(),
) -> dict:
    """A point's values with its token and layer count parameters set for one build (those
    in `ids` take the layers' ids, `list(range(layers))`; those in `pairs` a stage's (start,
    end), `(0, layers)`; those in `budgets`, byte budgets the pool divides into rows,
    `BYTES_PER_ROW` bytes a token)."""
    full = dict(values)
    full.update({name: tokens for name in token_names})
    for name in budgets:  # bytes, not tokens: enough for rows at any sampled width
        full[name] = (
            TokenLanes(tuple(t * BYTES_PER_ROW for t in tokens.items))
            if type(tokens) is TokenLanes
            else tokens * BYTES_PER_ROW
        )
    full.update(
        {
            name: list(range(layers)) if name in ids else (0, layers) if name in pairs else layers
            for name in layer_names
        }
    )
    return full


class PoolEvaluator:
    """Evaluates pools of one index under one set of settings."""

    lanes = True  # a point's builds carry token counts as lanes where they can (lanes.py)

    def __init__(
        self,
        index: ProjectIndex,
        settings: Settings,
        limits: Limits = DEFAULT_LIMITS,
        roles: RoleBook | None = None,
    ):
        self.index = index
        self.settings = settings
        self.limits = limits
        self.roles = roles if roles is not None else RoleBook(index, settings)
        self._ids = frozenset(settings.layer_id_params)  # layer parameters given as id lists
        # parameters the matrix lists attribute paths of (`cache_params.shape.temporal`)
        self._object_roots = settings.object_roots()
        self.demands: set[tuple[str, Any]] = set()  # of the evaluation running (ConfigPoint)
        self.pending: set[str] = set()  # stand-ins' attributes read with no value (composed)
        self.fallbacks: dict[str, str] = {}  # the text each falls back to, if any
        self.options: dict[str, tuple] = {}  # command-line options with choices (cli_args)
        self.lookups: set[tuple[str, str]] = set()  # (dimension, table key) of the points
        self.point_demands: set[tuple[str, Any]] = set()  # of the point running
        self.first_builds = FirstBuilds(index)  # outcomes shared by a device's evaluations
        # (device, host, site) whose lanes builds changed module state: the first layer
        # count's builds one by one from then on ("settled"), and if the rest still change
        # it, every build one by one (unsettled)
        self._constants: dict[tuple[int, str], int | None] = {}  # _constant_blocks
        self.state_changers: set[tuple[int, int, int]] = set()
        self.unsettled: set[tuple[int, int, int]] = set()

    def _arguments(self, cls: ClassInfo, values: dict[str, Any], device: Instance | None) -> dict:
        kwargs: dict[str, Any] = {}
        device_params = self.roles.device_params(cls)
        objects = self.roles.objects(cls)
        facts = self.roles.facts(cls)
        dtypes = facts.dtype_params if facts is not None else set()
        classes = facts.object_classes if facts is not None else {}
        for name in parameter_names(cls):
            if device is not None and name in device_params:
                kwargs[name] = device
            elif name in objects and name not in dtypes:  # its attributes are config values
                # (`ModelShape.n_layers`), even where the other pool's parameter of that name
                # is sampled as a number (a draft's plain `cfg`); a dtype read for its
                # `.itemsize` is the point's dtype
                kwargs[name] = RuntimeObject(objects[name], klass=classes.get(objects[name]))
            elif name in values:
                kwargs[name] = ConfigDependency(name)
            elif name in objects:
                kwargs[name] = RuntimeObject(objects[name], klass=classes.get(objects[name]))
            elif name in self._object_roots and object_paths(name, values):  # (and no other)
                kwargs[name] = RuntimeObject(name, listed=True)
        return kwargs

    def _build(self, cls: ClassInfo, interpreter: Interpreter, values, device=None) -> Instance:
        instance = interpreter.instantiate(
            cls, [], self._arguments(cls, values, device), cls.location
        )
        if isinstance(instance, Instance):
            _after_build(interpreter, instance)
        return instance

    def build_host(
        self, host_cls: ClassInfo, interpreter: Interpreter, values: dict, device: Instance
    ) -> Any:
        """The host side of one build (declared.py reads it off the device pool instead)."""
        return self._build(host_cls, interpreter, values, device)

    def _measure_device(
        self, builds: list, device_cls: ClassInfo, block: str | None, given
    ) -> dict[str, BufferFigure]:
        """The device's figures; for one whose token parameter is a byte budget it divides
        into rows it keeps under no count's name (`self.num_tokens = budget // row_bytes`),
        per row it holds: every buffer grows along one dimension, as a host's rows do."""
        roles = self.roles
        token_names = roles.tokens(device_cls)
        budgets = byte_budgets(self.settings, token_names)
        kept = [n for n in token_names if n not in budgets]
        uncounted = all(isinstance(b[0], Instance) for b in builds) and not any(
            _positive(b[0].attrs.get(n)) for b in builds for n in kept
        )
        if not (budgets and block is None and uncounted):
            return measure(builds, device_cls, token_names, roles.layers(device_cls), block, given)
        rows = row_counts(builds)
        if rows is None:  # (the builds' token counts are bytes, no rows: never a figure)
            why = (
                f"{device_cls.name} keeps as many rows as a byte budget buys, under no count's "
                "name, and its buffers do not all grow along one dimension: no row to count"
            )
            names = sorted({n for b in builds for n in buffers_of(b[0])})
            where = device_cls.location
            return {n: BufferFigure(n, where, unknown=Unknown(why, where)) for n in names}
        counted = [(b[0], n, b[2]) for b, n in zip(builds, rows[0])]
        figures = measure(counted, device_cls, [], roles.layers(device_cls))
        note = f"; per row (the rows a byte budget buys, {rows[1]})"
        return {
            n: replace(f, arithmetic=f.arithmetic + note) if f.resolved else f
            for n, f in figures.items()
        }

    def measure_host(
        self, builds: list, host_cls: ClassInfo, devices: list, values: dict
    ) -> dict[str, BufferFigure]:
        roles = self.roles
        block = roles.block(host_cls)
        given, assumed = self._block_given(host_cls, block, devices, values)
        builds, unit_note = self._in_device_units(builds, host_cls, block, devices)
        figures = measure(
            builds,
            host_cls,
            roles.tokens(host_cls),
            roles.layers(host_cls),
            block,
            given,
        )
        if unit_note:
            figures = {
                n: replace(f, arithmetic=f.arithmetic + unit_note) if f.resolved else f
                for n, f in figures.items()
            }
        kept = block is not None and all(  # its own (`self.prefix_len`): that one is used
            isinstance(b[0], Instance) and isinstance(b[0].attrs.get(block), int) for b in builds
        )
        if given is not None and assumed and not kept:
            note = f"; tokens per block: its device's, {given[0]} (it names no block size)"
            figures = {
                n: replace(f, arithmetic=f.arithmetic + note) if f.resolved else f
                for n, f in figures.items()
            }
        scaled = _scaled_rows(roles, host_cls)
        # a host taking its device by the pack's names, built whole, that keeps no token
        # count of its own (`self.num_pages = int(device_pool.num_pages * ratio)`): its rows
        # say its tokens, where they grow with its device's; else nothing says them
        uncounted = (
            roles.inferred(host_cls) is None
            and id(host_cls) not in roles.hosts
            and bool(figures)
            and all(f.resolved for f in figures.values())
            and all(isinstance(b[0], Instance) for b in builds)
            and not any(
                _positive(b[0].attrs.get(n)) for b in builds for n in roles.tokens(host_cls)
            )
        )
        if (
            scaled
            or uncounted
            or (roles.inferred(host_cls) is None and id(host_cls) in roles.hosts)
        ):
            # seen by behaviour, nothing says how many tokens it holds (or it holds a ratio of
            # its device's tokens): per row, where every buffer grows along one dimension with
            # the device's tokens (the slots the code indexes), else unresolved
            rows = row_counts(builds)
            if rows is None and scaled:
                return figures
            if rows is not None:
                # rows of its device's blocks where it keeps their size (`self.page_size =
                # target.page_size`): that many tokens each
                units, unit_note = self._row_units(builds, devices, rows[0])
                counted = [(b[0], n * u, b[2]) for b, n, u in zip(builds, rows[0], units)]
                figures = measure(counted, host_cls, [], roles.layers(host_cls))
                note = f"; per row (the host names no token count: its rows, {rows[1]}"
                if scaled:
                    note = f"; per row (its rows are {scaled} times its device's: {rows[1]}"
                note += f"{unit_note})"
                return {
                    n: replace(f, arithmetic=f.arithmetic + note) if f.resolved else f
                    for n, f in figures.items()
                }
            why = Unknown(
                f"host {host_cls.name}: no parameter or attribute was found to count its "
                "tokens, and its buffers do not grow along one dimension with the device's",
                host_cls.location,
            )
            figures = {n: replace(f, unknown=why, arithmetic="") for n, f in figures.items()}
        return figures

    def _constant_blocks(self, cls: ClassInfo, block: str | None, builds: int) -> list | None:
        """Tokens per block of a pool whose shapes read a module constant for it
        (behaviour._constant_block: `BLOCK_SIZE`): the constant's value, as its module (or the
        one it imports it from) binds it, when that is a positive number."""
        if block is None or not block.isupper() or not block.isidentifier():
            return None
        key = (id(cls), block)
        if key not in self._constants:
            interpreter = Interpreter(self.index, ConfigPoint({}), self.limits)
            values = set()  # every module of its MRO that binds the name (the shape may be an
            for klass in cls.mro():  # inherited method's, in another module): one value
                namespace = interpreter.module_namespace(klass.module)
                if block in namespace:
                    value = interpreter.force(namespace, block, cls.location)
                    ok = isinstance(value, int) and not isinstance(value, bool) and value > 0
                    values.add(value if ok else None)
            self._constants[key] = values.pop() if len(values) == 1 else None
        value = self._constants[key]
        return [value] * builds if value is not None else None

    def _in_device_units(
        self, builds: list, host_cls: ClassInfo, block: str | None, devices: list
    ) -> tuple[list, str]:
        """A host that keeps no token count and no block size of its own is measured by the
        count its device was given (measure.count_of): where its device counts blocks
        (`max_batch_size` sequences of its `max_cache_len` tokens), that count times the
        device's tokens per block, build by build (said); the builds as they are otherwise."""
        if block is not None or len(devices) != len(builds):
            return builds, ""
        names = self.roles.tokens(host_cls)
        if any(
            isinstance(b[0], Instance) and any(_positive(b[0].attrs.get(n)) for n in names)
            for b in builds
        ):
            return builds, ""  # its own count (`self.size`)
        first = devices[0][0]
        theirs = self.roles.block(first.cls) if isinstance(first, Instance) else None
        if (
            theirs is None
            or theirs == UNSAID_BLOCK
            or not self._reads_device_count(host_cls, first)
        ):
            return builds, ""
        units = [
            tokens_per_unit(d[0], theirs) if isinstance(d[0], Instance) else None for d in devices
        ]
        if not all(_positive(u) for u in units):
            return builds, ""
        counted = [(b[0], b[1] * u, *b[2:]) for b, u in zip(builds, units)]
        return counted, f"; its rows: its device's blocks, of its device's {theirs} tokens each"

    def _reads_device_count(self, host_cls: ClassInfo, device: Instance) -> bool:
        """Does the host read its device's count of blocks off the config object both take
        (`config.max_batch_size`, the device's tokens `RunConfig.max_batch_size`), so that
        its rows are the device's blocks?"""
        inferred = self.roles.inferred(device.cls)
        path, _, attribute = (inferred.tokens or "").rpartition(".") if inferred else ("", "", "")
        facts = self.roles.facts(host_cls)
        if not path or facts is None:
            return False
        for name, read in facts.read_attributes.items():
            param = facts.params.get(name)
            held = facts.objects.get(name) or (param.annotation if param is not None else None)
            if attribute in read and held is not None and path in re.findall(r"\w+", held):
                return True
        return False

    def _row_units(self, builds: list, devices: list, rows: list[int]) -> tuple[list[int], str]:
        """Tokens per host row: 1, or, for a device counted in blocks (`num_pages` of
        `page_size` tokens, `max_batch_size` sequences of `max_cache_len`) whose block size
        the host keeps under the same name, that size; where it keeps none but holds one row
        per block of its device at every build, the device's (said)."""
        first = devices[0][0] if devices else None
        block = self.roles.block(first.cls) if isinstance(first, Instance) else None
        if block is None or block == UNSAID_BLOCK:
            return [1] * len(builds), ""
        kept = [b[0].attrs.get(block) if isinstance(b[0], Instance) else None for b in builds]
        if all(_positive(k) for k in kept):
            return kept, f", of self.{block} tokens each"
        theirs = [d[0].attrs.get(block) if isinstance(d[0], Instance) else None for d in devices]
        units = [d[1] for d in devices]
        if (
            len(devices) == len(builds)
            and all(_positive(k) for k in theirs)
            and rows == units
            and isinstance(first, Instance)
            and self._reads_device_count(builds[0][0].cls, first)
        ):
            # one row per unit of its device's count (the same object's `max_batch_size`)
            return theirs, f", one per block of its device, of its device's {block} tokens each"
        return [1] * len(builds), ""

    def _block_given(
        self, host_cls: ClassInfo, block: str | None, devices: list, values: dict
    ) -> tuple[list[int | None] | None, bool]:
        """Tokens per block of a host sized in blocks that keeps no `self.<block>`: the
        config value of its parameter of that name, else, when it reads the block size off its
        device pool (`block_size = gpu_cache.block_size`), the device's, build by build; else
        its device's blocks taken as its own (`_device_blocks`: True, said)."""
        if block is None:
            return None, False
        given = values.get(block)
        if isinstance(given, int) and not isinstance(given, bool):
            return [given] * len(devices), False
        constant = self._constant_blocks(host_cls, block, len(devices))
        if constant is not None:  # a module constant its shapes read (`BLOCK_SIZE`)
            return constant, False
        facts = self.roles.facts(host_cls)
        params = self.roles.device_params(host_cls)
        if facts is None or not any(block in facts.read_attributes.get(p, ()) for p in params):
            found = self._device_blocks(devices, values)
            return found, found is not None
        return [
            device.attrs.get(block) if isinstance(device, Instance) else None
            for device, _, _ in devices
        ], False

    def _device_blocks(self, devices: list, values: dict) -> list[int | None] | None:
        """A host counted in blocks that names no block size of its own (`(num_cpu_blocks,) +
        store.block_shape()`, a page stride computed from its device's config): its blocks
        are its device's, which are counted in blocks of a known size (kept on the device,
        or the device's config value). Said in the host's figures (measure_host)."""
        first = devices[0][0] if devices else None
        block = self.roles.block(first.cls) if isinstance(first, Instance) else None
        if block is None:
            return None
        config = _block_of_config(block, values, len(devices)) or [None] * len(devices)
        found = []
        for (device, _, _), fallback in zip(devices, config):
            kept = device.attrs.get(block) if isinstance(device, Instance) else None
            found.append(kept if isinstance(kept, int) and not isinstance(kept, bool) else fallback)
        return None if None in found else found

    def _site_arguments(
        self, site: ConstructionSite, interpreter: Interpreter, values: dict, device: Instance
    ) -> dict:
        """The host's arguments as the call site writes them: the device pool built at this
        point, values the site fixes (literals, constants, the device's attributes), config
        values for what the site takes from elsewhere, and defaults for what it leaves out."""
        kwargs: dict[str, Any] = {}
        where = site.where()
        inferred = self.roles.inferred(site.host)
        for name in parameter_names(site.host):
            if name == site.device_parameter and not site.via_record:
                kwargs[name] = device
            elif inferred is not None and name == inferred.tokens and name in values:
                kwargs[name] = ConfigDependency(name)  # its token count: varied to measure
            elif name in site.arguments:
                value = site_value(site, name, interpreter, device)
                if is_unknown(value):
                    value = (
                        ConfigDependency(name)
                        if name in values
                        else Unknown(
                            f"argument {name} at call site {where}: {value.reason}",
                            site.location,
                            cause=value,
                        )
                    )
                kwargs[name] = value
            elif site.unfollowed is not None:
                kwargs[name] = (
                    ConfigDependency(name)
                    if name in values
                    else Unknown(
                        f"{name} may be passed by {site.unfollowed} at {where}", site.location
                    )
                )
        return kwargs

    def _composed_device(
        self,
        site: ConstructionSite,
        device_cls: ClassInfo,
        interpreter: Interpreter,
        values: dict,
        result: PointResult,
    ) -> Any:
        """A composed pair's device (composed.py), as the function holding both calls builds
        it; NotCompared when the run does not reach its call."""
        roles = self.roles
        varied = tuple(roles.tokens(device_cls) + roles.layers(device_cls))
        run = run_device(site, interpreter, values, device_cls, varied, roles.objects(device_cls))
        if run.missed is not None:
            raise NotCompared(f"the device {device_cls.name}: {run.missed}")
        for branch in run.branches:
            if branch not in result.assumed:
                result.assumed.append(branch)
        if isinstance(run.host, Instance):
            _after_build(interpreter, run.host)
        return run.host

    def _site_host(
        self,
        site: ConstructionSite,
        interpreter: Interpreter,
        values: dict,
        device: Instance,
        result: PointResult,
    ) -> tuple[Any, tuple | None]:
        """The host as the site builds it: through the function holding the call when it can
        be run to it (site_run.py), else from the call's arguments as written; with, when it
        was run, the config reads and demands up to the call (SiteRun.reached)."""
        if runnable(site):
            inferred = self.roles.inferred(site.host)
            varied = (inferred.tokens,) if inferred is not None and inferred.tokens else ()
            if composed_run(site):  # composed.py: both counts, as the device's
                varied = tuple(self.roles.tokens(site.host) + self.roles.layers(site.host))
            objects = self.roles.objects(site.host)
            run = run_site(site, interpreter, values, device, varied, self.settings, objects)
            if run.missed is None:
                result.passed = sorted(run.passed)
                for branch in run.branches:
                    if branch not in result.assumed:
                        result.assumed.append(branch)
                return run.host, run.reached
        arguments = self._site_arguments(site, interpreter, values, device)
        for note in [
            *callers_objects(arguments, self.roles.objects(site.host)),
            *callers_defaults(site.host, arguments),
            *stand_in_anchors(
                site.host, arguments, self.settings, interpreter, values, site.module, site.location
            ),
        ]:
            if note not in result.assumed:
                result.assumed.append(note)
        record = arguments.get(site.device_parameter) if site.via_record else None
        if is_unknown(record):  # what the host would be built from is not known: no host
            raise NotCompared(f"the record passed at {site.where()} is not known: {record.reason}")
        return interpreter.instantiate(site.host, [], arguments, site.location), None

    def run_point(
        self,
        device_cls: ClassInfo,
        host_cls: ClassInfo | None,
        values: dict,
        site: ConstructionSite | None = None,
    ) -> tuple[PointResult, set[str]]:
        state = ModuleState()  # module bodies declared once for the builds of this point
        self.point_demands = set()
        try:
            return self._run_point(device_cls, host_cls, values, site, state)
        finally:
            state.release()

    def _run_point(
        self,
        device_cls: ClassInfo,
        host_cls: ClassInfo | None,
        values: dict,
        site: ConstructionSite | None,
        state: ModuleState,
    ) -> tuple[PointResult, set[str]]:
        """The point's builds, two of them carrying the token counts as lanes (lanes.py) where
        the code lets them; else, or where the lanes diverge, the five one by one."""
        changes = (id(device_cls), id(host_cls), id(site))
        plan = "settled" if changes in self.state_changers else "lanes"
        if self.lanes and changes not in self.unsettled:
            saved = set(self.point_demands), set(self.demands)
            state.watch = Watch(DEFERRED)
            try:
                with Active():
                    built = self._builds(device_cls, host_cls, values, site, state, plan)
                LANES_STATS["lanes"] += 1
                return built
            except Diverged as signal:
                LANES_STATS["diverged"] += 1
                if isinstance(signal, StateChanged):
                    (self.state_changers if plan == "lanes" else self.unsettled).add(changes)
                self.point_demands.clear()
                self.point_demands.update(saved[0])
                self.demands.clear()
                self.demands.update(saved[1])
                state.release()  # the builds one by one start from the module state's start
            finally:
                state.watch.release()
                state.watch = None
        return self._builds(device_cls, host_cls, values, site, state, "one")

    def _builds(
        self,
        device_cls: ClassInfo,
        host_cls: ClassInfo | None,
        values: dict,
        site: ConstructionSite | None,
        state: ModuleState,
        plan: str,
    ) -> tuple[PointResult, set[str]]:
        settings, roles = self.settings, self.roles
        host_of = site.host if site is not None else host_cls
        token_names = roles.tokens(device_cls) + roles.tokens(host_of)
        layer_names = roles.layers(device_cls) + roles.layers(host_of)
        device_builds: list[tuple[Instance, Any, int]] = []
        host_builds: list[tuple[Instance, Any, int]] = []
        reads: set[str] = set()
        result = PointResult(values)
        call = site.call if site is not None and runnable(site) else None
        # composed.py: the device too is built as the function holding both calls builds it
        composed = composed_run(site)
        ids = self._ids | roles.id_lists(device_cls) | roles.id_lists(host_of)
        pairs = roles.range_pairs(device_cls) | roles.range_pairs(host_of)
        budgets = byte_budgets(settings, token_names)
        for tokens, layers, first_tokens in build_plan(settings, plan):
            as_lanes = type(tokens) is TokenLanes
            if as_lanes:
                state.watch.start(state)  # what the builds before it left: left as it is
            full = with_counts(
                values, token_names, tokens, layer_names, layers, ids, pairs, budgets
            )
            first = not device_builds and not composed
            if first:  # decided before any host at an earlier evaluation: not run again
                keyed = with_counts(
                    values, token_names, first_tokens, layer_names, layers, ids, pairs, budgets
                )
                replay = self._replay(device_cls, call, host_of, keyed, site)
                if replay is not None:
                    result.infeasible, replayed_reads, device_built = replay
                    result.refused_by_host = (
                        device_built
                        and host_cls is not None
                        and _within(result.infeasible.location, host_of)
                    )
                    return result, replayed_reads
                noted = self.first_builds.recording()
            point = ConfigPoint(full)
            point.counts = frozenset(token_names) | frozenset(layer_names)
            interpreter = Interpreter(self.index, point, self.limits, state)
            device_built = False
            reached = None
            try:
                if composed:
                    device = self._composed_device(site, device_cls, interpreter, full, result)
                else:
                    device = self._build(device_cls, interpreter, full)
                device_builds.append((device, tokens, layers))
                device_built = True
                if site is not None:
                    host, reached = self._site_host(site, interpreter, full, device, result)
                    if isinstance(host, Instance):
                        _after_build(interpreter, host)
                    host_builds.append((host, tokens, layers))
                elif host_cls is not None:
                    host = self.build_host(host_cls, interpreter, full, device)
                    host_builds.append((host, tokens, layers))
                if host_cls is not None:  # an undecided `raise`: compared, and said so
                    for why in undecided_raises(host):
                        if why not in result.assumed:
                            result.assumed.append(why)
            except Infeasible as signal:  # kept as the plain signal (the cache stores it)
                result.infeasible = signal.plain()
                result.refused_by_host = (
                    device_built and host_cls is not None and _within(signal.location, host_of)
                )
                if first and not device_built:
                    seen = (frozenset(point.reads), frozenset(point.demands))
                    self._keep(device_cls, None, keyed, seen, noted, refused=signal)
                elif first and isinstance(signal, OtherHost):
                    self._keep(device_cls, call, keyed, signal.reached, noted, built=signal.built)
            except BudgetExceeded as signal:
                if as_lanes:
                    raise Diverged from None  # a bound met in a lanes build: built one by one
                result.failure = Unknown(signal.reason, signal.location, Why.LIMIT)
            except NotCompared as signal:
                result.failure = Unknown(str(signal), site.location if site else None)
            except RecursionError:
                if as_lanes:
                    raise Diverged from None
                result.failure = Unknown("audited code nests too deeply", device_cls.location)
            finally:
                if first:
                    self.first_builds.stop_recording(noted)
            reads |= point.reads
            self.pending |= point.pending
            self.fallbacks.update(point.fallbacks)
            for name, choices in point.options.items():
                self.options.setdefault(name, choices)
            self.lookups |= point.lookups
            for variable in point.unset:  # read as unset: said with the figures
                note = unset_note(variable)
                if note not in result.assumed:
                    result.assumed.append(note)
            for attribute in point.absent:  # a stand-in's attribute its class never gives
                note = f"{attribute} taken as absent (its class gives no such attribute)"
                if note not in result.assumed:
                    result.assumed.append(note)
            demands = point.demands
            if result.infeasible is None and result.failure is None and as_lanes:
                state.watch.check()  # the builds it stands for saw the same module state
                demands = demands | point.lane_demands  # every lane's build got this far
            self.point_demands |= demands
            self.demands |= demands
            if first:
                if reached is not None and result.infeasible is None and result.failure is None:
                    self._keep(device_cls, call, keyed, reached, noted, built=site.host)
            if result.infeasible is not None or result.failure is not None:
                return result, reads
        device_builds, host_builds = each_count(device_builds, host_builds)
        block = roles.block(device_cls)
        given = _block_of_config(block, values, len(device_builds))
        if composed:  # the block size its object holds (`self.layout.block_size`)
            given = _held_blocks(device_builds, block) or given
        given = given or self._constant_blocks(device_cls, block, len(device_builds))
        result.device = self._measure_device(device_builds, device_cls, block, given)
        ratio = slot_ratio(device_cls, values, settings.slot_ratio_params)
        if ratio is not None:
            name, value = ratio
            doubled = self._device_figures(device_cls, {**values, name: 2 * value}, state)
            result.device = per_slot(result.device, doubled, name, value)
        if host_cls is not None:
            result.host = self.measure_host(host_builds, host_cls, device_builds, values)
            result.held = sorted(held_from(host_builds[0][0], device_builds[0][0]))
            for name in result.held:
                result.host.pop(name, None)  # the device's storage, kept by the host
            result.host_claim = claimed_size(host_builds, host_cls, roles.layers(host_cls))
        return result, reads

    def _device_figures(
        self, device_cls: ClassInfo, values: dict, state: ModuleState
    ) -> dict[str, BufferFigure]:
        """The device pool alone measured at `values` (slots.py builds it at twice a slot
        ratio); nothing when it cannot be built there. What it reads and compares is not the
        point's: the ratio is a probe, not a dimension."""
        # after lanes builds, as lanes (a divergence builds the whole point one by one); after
        # builds one by one, one by one (they share the module state the probe sees)
        plan = "lanes" if state.watch is not None else "one"
        return self._device_alone(device_cls, values, state, plan)

    def _device_alone(
        self, device_cls: ClassInfo, values: dict, state: ModuleState, plan: str
    ) -> dict[str, BufferFigure]:
        roles = self.roles
        token_names, layer_names = roles.tokens(device_cls), roles.layers(device_cls)
        ids = self._ids | roles.id_lists(device_cls)
        pairs = roles.range_pairs(device_cls)
        builds: list[tuple[Instance, Any, int]] = []
        budgets = byte_budgets(self.settings, token_names)
        for tokens, layers, _ in build_plan(self.settings, plan):
            as_lanes = type(tokens) is TokenLanes
            full = with_counts(
                values, token_names, tokens, layer_names, layers, ids, pairs, budgets
            )
            interpreter = Interpreter(self.index, ConfigPoint(full), self.limits, state)
            try:
                builds.append((self._build(device_cls, interpreter, full), tokens, layers))
                if as_lanes:
                    state.watch.check()
            except Infeasible:
                return {}
            except (BudgetExceeded, RecursionError):
                if as_lanes:
                    raise Diverged from None
                return {}
        (builds,) = each_count(builds)
        block = roles.block(device_cls)
        given = _block_of_config(block, values, len(builds))
        given = given or self._constant_blocks(device_cls, block, len(builds))
        return measure(builds, device_cls, token_names, layer_names, block, given)

    def _replay(
        self,
        device_cls: ClassInfo,
        call: cst.Call | None,
        host_of: ClassInfo | None,
        full: dict,
        site: ConstructionSite | None,
    ) -> tuple[Infeasible, set[str], bool] | None:
        """The point's outcome if an earlier evaluation's first build decided it before any
        host was built (first_builds.py): the device refused it, or the function holding the
        site builds another host class there. The refusal, the config values read as running
        it would give, and whether the device was built."""
        memo = self.first_builds
        entry = memo.find(memo.key(device_cls, None, full), full)
        if entry is None and call is not None:
            entry = memo.find(memo.key(device_cls, call, full), full)
            if entry is not None and entry.built is host_of:
                return None  # this pair's host is built here: run it
        if entry is None:
            return None
        memo.replayed(entry)
        self.point_demands |= entry.demands
        self.demands |= entry.demands
        if entry.refused is not None:
            return entry.refused, set(entry.reads), False
        refusal = other_host(site.function.rsplit(".", 1)[-1], entry.built, site.host)
        refusal.location = site.location
        return refusal, set(entry.reads), True

    def _keep(
        self,
        device_cls: ClassInfo,
        call: cst.Call | None,
        full: dict,
        seen: tuple[frozenset, frozenset],
        noted: set[str],
        refused: Infeasible | None = None,
        built: ClassInfo | None = None,
    ) -> None:
        """Keep a first build's outcome decided before any host (first_builds.py): `seen` is
        the config names read and the literals compared up to that outcome."""
        reads, demands = seen
        memo = self.first_builds
        entry = FirstBuild(
            tuple((name, full[name]) for name in sorted(reads) if name in full),
            reads,
            demands,
            frozenset(noted),
            refused,
            built,
        )
        memo.keep(memo.key(device_cls, call, full), entry)

    def evaluate(
        self,
        device_cls: ClassInfo,
        host_cls: ClassInfo | None = None,
        site: ConstructionSite | None = None,
    ) -> Evaluation:
        classes = [device_cls] + ([host_cls] if host_cls is not None else [])
        dims = dimensions(classes, self.settings, self.roles)
        composed = composed_run(site)
        if site is not None and not composed:  # the site fixes some host parameters
            taken = site_config_parameters(site, self.index)
            device_dims = dimensions([device_cls], self.settings, self.roles)
            # a host's config objects are the stand-ins the device reads (site_run.py
            # callers_objects): their attributes vary as the device's do
            paths = set(self.roles.objects(site.host).values())
            dims = {
                n: d
                for n, d in dims.items()
                if n in device_dims or n in taken or n.partition(".")[0] in paths
            }
            for name in run_parameters(site):  # the function run for the site takes these
                if name in self.settings.matrix and name not in dims:
                    dims[name] = Dimension(name, tuple(self.settings.matrix[name]))
        platform = platform_of(device_cls, self.settings)
        if platform is not None:
            dims.update(platform[1])
        if host_cls is not None or site is not None:  # values a factory needs to pick it
            dims.update(host_values_of(host_cls or site.host, self.settings))
        defaults = dict(self.roles.given.get((id(device_cls), id(host_cls)), {}))
        if composed:  # the run function's defaults (`def start(width=128)`)
            defaults.update(run_defaults(site))
        elif site is not None:  # the device as the site's function builds it
            defaults.update(device_call_values(site, device_cls))
        for name, value in defaults.items():  # siblings: the building function's default
            if name in dims and dims[name].free:
                dims[name] = Dimension(name, (value,))
        results: list[PointResult] = []
        read: set[str] = set()
        ran: dict[tuple, tuple[PointResult, set[str], set]] = {}  # a later round's repeats

        def run(values: dict[str, Any]) -> set[str]:
            key = tuple(sorted(values.items(), key=lambda item: item[0]))
            if key in ran:
                result, reads, demands = ran[key]
                self.demands |= demands
            else:
                result, reads = self.run_point(device_cls, host_cls, values, site)
                ran[key] = (result, reads, set(self.point_demands))
                COUNTERS.points += 1
            results.append(result)
            read.update(reads)
            return reads

        self.demands = set()
        self.pending = set()
        self.fallbacks = {}
        self.lookups = set()
        self.options = {}
        points, varied, truncated = explore(dims, run, self.limits.max_config_points)
        for _ in range(DEMAND_ROUNDS):
            # the choices of the command-line options the code parses (cli_args.py): each a
            # dimension of its own, the default first (the points so far ran with it)
            extra = {n: v for n, v in self.options.items() if n not in dims}
            if truncated or not extra:
                break
            for name, choices in extra.items():
                dims[name] = Dimension(name, choices)
            results.clear()
            read.clear()
            self.demands = set()
            points, varied, truncated = explore(dims, run, self.limits.max_config_points)
        demanded: dict[str, list[Any]] = {}
        over: dict[str, list[Any]] = {}  # demanded beyond DEMANDED_PER_DIMENSION

        def demand_rounds(points, varied, truncated):
            for _ in range(DEMAND_ROUNDS):  # values the code demands, when the matrix has none
                if truncated or any(r.infeasible is None and r.failure is None for r in results):
                    break
                extra = demanded_values(dims, self.demands, over)
                if not extra:
                    break
                for name, values in extra.items():
                    dims[name] = replace(dims[name], values=dims[name].values + tuple(values))
                    demanded.setdefault(name, []).extend(values)
                self.demands = set()
                points, varied, truncated = explore(dims, run, self.limits.max_config_points)
            return points, varied, truncated

        points, varied, truncated = demand_rounds(points, varied, truncated)
        sampled = 0  # stand-ins' attributes given a value so far
        texts: set[str] = set()  # of those, the ones given their fallback text

        def pending_rounds(points, varied, truncated):
            nonlocal sampled
            for _ in range(DEMAND_ROUNDS if composed else 0):
                # composed.py: attributes of the stand-ins that the function (not either
                # pool) reads (`m.v_head_dim` in `Layout.for_prefill(s)`), sampled
                extra = _leaves(self.pending, stand_in_paths(site)) - set(dims)
                if truncated or not extra:
                    break
                # one value each: both pools read it at the point, and the points stay few;
                # each its own, so that a pool reading one attribute for another shows
                # (`q_lora_rank` for `kv_lora_rank`) (matrix.stand_in_sample)
                dtypes = tuple(self.settings.default_dtypes[:1])
                for name in sorted(extra):
                    number = stand_in_sample(name, sampled)
                    sampled += 1
                    sample = dtypes if number is None else (StandInSample(number),)
                    if number is None and name in self.fallbacks:  # a dtype's name, read
                        # as text (`hf.get("torch_dtype", "bfloat16")`): the code's default
                        # text, then the keys of the tables it is looked up in (below); a
                        # text not named a dtype is sampled as a number, which each literal
                        # it is compared with demands (`kv == "auto"` would hide "fp8")
                        sample = (self.fallbacks[name],)
                        texts.add(name)
                    dims[name] = Dimension(name, sample)
                results.clear()
                read.clear()
                self.demands = set()
                points, varied, truncated = explore(dims, run, self.limits.max_config_points)
            return points, varied, truncated

        points, varied, truncated = pending_rounds(points, varied, truncated)
        for _ in range(DEMAND_ROUNDS if sampled else 0):
            # what the code demands of those (`if cfg.cache_dtype == "int8"` choosing the
            # class built, `raise ValueError(layout)`): their samples may be refused
            # everywhere; then what the paths the demanded values open read, in turn
            before = sum(len(v) for v in demanded.values()), sampled
            points, varied, truncated = demand_rounds(points, varied, truncated)
            points, varied, truncated = pending_rounds(points, varied, truncated)
            if (sum(len(v) for v in demanded.values()), sampled) == before:
                break
        for _ in range(DEMAND_ROUNDS if texts else 0):
            # a key read with the code's own fallback text (`hf.get("kv_cache_dtype",
            # "auto")`) is sampled with it: a value the code accepts, not the only one. The
            # texts it is compared with and the keys of the tables it indexes are tried too,
            # whether or not the fallback's points were feasible
            asked = {(n, v) for n, v in self.demands | self.lookups if n in texts}
            extra = demanded_values(dims, asked, over)
            if truncated or not extra:
                break
            for name, values in extra.items():
                dims[name] = replace(dims[name], values=dims[name].values + tuple(values))
                demanded.setdefault(name, []).extend(values)
            self.demands, self.lookups = set(), set()
            points, varied, truncated = explore(dims, run, self.limits.max_config_points)
        # `explore` may re-key points when new dimensions appear; keep the last result per point
        by_key: dict[tuple, PointResult] = {}
        for result in results:
            by_key[tuple(result.values.get(n) for n in varied)] = result

        def order(key: tuple) -> list[int]:
            return [dims[name].values.index(value) for name, value in zip(varied, key)]

        ordered = [by_key[key] for key in sorted(by_key, key=order)]
        free = [name for name in varied if dims[name].free]
        apart: set[tuple[str, str]] = set()
        # (a free parameter both pools take: sides apart at each of its samples are compared)
        both = set(parameter_names(device_cls)) & (
            set(parameter_names(host_cls)) if host_cls is not None else set()
        )
        for name in free:
            ordered, varied = settle_free(ordered, varied, name, apart if name in both else None)
        return Evaluation(
            device_cls,
            host_cls,
            ordered,
            varied,
            truncated,
            site,
            reads=frozenset(read & set(dims)),
            free=free,
            apart=frozenset(apart),
            demanded={name: tuple(values) for name, values in demanded.items()},
            untried={
                name: tuple(left)
                for name, values in over.items()
                if (left := [v for v in values if v not in dims[name].values])
            },
            platform=(platform[0], tuple(platform[1])) if platform is not None else None,
        )


def _held_blocks(builds: list, block: str | None) -> list[int | None] | None:
    """Tokens per block of composed devices that keep, not the block size, but the object
    holding it (`self.layout = layout`): that object's, build by build, when one holds it."""
    if block is None:
        return None
    found: list[int | None] = []
    for instance, _, _ in builds:
        held = [
            value.attrs.get(block)
            for value in (instance.attrs.values() if isinstance(instance, Instance) else ())
            if isinstance(value, Instance)
        ]
        sizes = {v for v in held if isinstance(v, int) and not isinstance(v, bool) and v > 0}
        if len(sizes) != 1:
            return None
        found.append(sizes.pop())
    return found


def _leaves(pending: set[str], paths: set[str]) -> set[str]:
    """Attributes of the stand-ins under `paths` read with no value (ConfigPoint.pending) that
    nothing was read off in turn: values, not objects (`s.model.v_head_dim`, not `s.model`)."""
    found = {name for name in pending if name.partition(".")[0] in paths}
    return {name for name in found if not any(n.startswith(name + ".") for n in found)}


def _within(location: Any, cls: ClassInfo) -> bool:
    """Whether a location lies in the class or one of its in-tree bases."""
    if location is None:
        return False
    for klass in cls.mro():
        where = klass.module.parsed.location(klass.node)
        if where.path == location.path and where.line <= location.line <= (
            where.end_line or where.line
        ):
            return True
    return False


DEMAND_ROUNDS = 3  # a value demanded may lead to code demanding another (page size, then layout)
DEMANDED_PER_DIMENSION = 4


def demanded_text(evaluation: Evaluation) -> str:
    """`; page_size=128, layout=page_first: values the code demands ...` for a finding, or ""."""
    if not evaluation.demanded:
        return ""
    shown = ", ".join(
        f"{name}={'/'.join(str(v) for v in values)}" for name, values in evaluation.demanded.items()
    )
    return f"; {shown}: values the code demands (no point of the matrix is accepted)"


def demanded_values(
    dims: dict[str, Dimension],
    demands: set[tuple[str, Any]],
    over: dict[str, list[Any]] | None = None,
) -> dict:
    """The literals the code compared a dimension's value with, not yet among its values (of
    its type; a free parameter's samples are left alone): `{name: [values]}`, a few each;
    `over` gets those left out by that limit (said, never silently dropped)."""
    extra: dict[str, list[Any]] = {}
    for name, literal in sorted(demands, key=lambda d: (d[0], repr(d[1]))):
        dim = dims.get(name)
        if dim is None or dim.free or not dim.values or literal in dim.values:
            continue
        if type(literal) is not type(dim.values[0]) and type(dim.values[0]) is not StandInSample:
            continue
        values = extra.setdefault(name, [])
        if len(values) < DEMANDED_PER_DIMENSION:
            values.append(literal)
        elif over is not None and literal not in over.setdefault(name, []):
            over[name].append(literal)
    return extra


def settle_free(
    points: list[PointResult],
    varied: list[str],
    name: str,
    apart_found: set[tuple[str, str]] | None = None,
) -> tuple[list[PointResult], list[str]]:
    """Fold the samples of a free parameter: per combination of the other dimensions, keep the
    first feasible sample's point; a buffer whose figure differs between samples is unresolved
    there, naming the parameter (its bytes per token per layer depend on a value nothing
    gives). `apart_found`, given for a parameter both pools take, collects the buffers whose
    two sides differ at every sample (compared at a sample, said: _apart_throughout)."""
    rest = [n for n in varied if n != name]
    groups: dict[tuple, list[PointResult]] = {}
    for point in points:
        groups.setdefault(tuple(point.values.get(n) for n in rest), []).append(point)
    kept = []
    for group in groups.values():
        feasible = [p for p in group if p.infeasible is None and p.failure is None]
        chosen = feasible[0] if feasible else group[0]
        alike = _scaling_alike(feasible)
        apart = _apart_throughout(feasible, name) if apart_found is not None else {}
        # device buffers no host holds under their name at any sample (LA003 decides whether
        # some host buffer mirrors them): what they hold is > 0 at every value, not its size
        hosted = {b for p in feasible for b in p.host}
        alone = {b for b in chosen.device if b not in hosted} if hosted else set()
        for side in ("device", "host"):
            figures = getattr(chosen, side)
            for buffer, figure in list(figures.items()):
                seen = {}
                for point in feasible:
                    other = getattr(point, side).get(buffer)
                    if other is not None and other.resolved:
                        size = (other.bytes_per_token_per_layer, other.bytes_per_token)
                        seen.setdefault(size, point.values.get(name))
                if figure.resolved and len(seen) > 1 and buffer in alike:
                    note = (
                        f"; at {name}={chosen.values.get(name)} (sampled: nothing gives it a "
                        "value, and host and device scale with it alike, so they compare the "
                        "same at any value)"
                    )
                    figures[buffer] = replace(figure, arithmetic=figure.arithmetic + note)
                elif figure.resolved and len(seen) > 1 and buffer in apart:
                    note = (
                        f"; at {name}={chosen.values.get(name)} (sampled: nothing gives it a "
                        f"value; host and device disagree at every sample: {apart[buffer]})"
                    )
                    figures[buffer] = replace(figure, arithmetic=figure.arithmetic + note)
                    apart_found.add((buffer, name))  # type: ignore[union-attr]
                elif (
                    figure.resolved
                    and len(seen) > 1
                    and side == "device"
                    and buffer in alone
                    and all(a > 0 and b >= 0 for a, b in seen)
                ):
                    shown = ", ".join(f"{a} B at {name}={v}" for (a, _), v in seen.items())
                    note = (
                        f"; at {name}={chosen.values.get(name)} (sampled: nothing gives it a "
                        f"value; {shown}: it holds bytes at any value, and no host holds a "
                        "buffer of its name)"
                    )
                    figures[buffer] = replace(figure, arithmetic=figure.arithmetic + note)
                elif figure.resolved and len(seen) > 1:
                    shown = ", ".join(f"{a} B at {name}={v}" for (a, _), v in seen.items())
                    reason = (
                        f"bytes per token per layer depend on {name}, a constructor parameter "
                        f"with no default and no configured value ({shown}); set it in "
                        "[tool.layout-audit.matrix]"
                    )
                    figures[buffer] = replace(
                        figure, unknown=Unknown(reason, figure.location), arithmetic=""
                    )
        kept.append(chosen)
    return kept, rest


def _paired_buffers(points: list[PointResult]) -> list[tuple[str, str]]:
    """(host buffer, device buffer) held at every point: one name on both sides, or named
    otherwise and paired one to one by what their names say they hold (buffer_roles)."""
    hosted = set.intersection(*(set(p.host) for p in points))
    held = set.intersection(*(set(p.device) for p in points))
    pairs = [(n, n) for n in sorted(hosted & held)]
    pairs += list(
        (buffer_roles.matching(sorted(hosted - held), sorted(held - hosted)) or {}).items()
    )
    return pairs


def _scaling_alike(points: list[PointResult]) -> set[str]:
    """Buffers of one name on both sides (or named otherwise, paired one to one by what their
    names say they hold: buffer_roles) whose figures keep one ratio at every sample of a free
    parameter (`num_kv_heads` read by both): the comparison is the same at any value of it, so
    they are compared at a sample rather than left unresolved. Both sides' names."""
    if not points:
        return set()
    pairs = _paired_buffers(points)
    alike = set()
    for host_name, device_name in pairs:
        ratios = set()
        for point in points:
            host, device = point.host[host_name], point.device[device_name]
            sizes = (host.bytes_per_token_per_layer, device.bytes_per_token_per_layer)
            if not (host.resolved and device.resolved) or not all(sizes):
                break
            ratios.add(Fraction(sizes[0], sizes[1]))  # type: ignore[arg-type]
        else:
            if len(ratios) == 1 and len(points) > 1:
                alike |= {host_name, device_name}
    return alike


def _apart_throughout(points: list[PointResult], name: str) -> dict[str, str]:
    """Buffers of one name on both sides (or paired by what their names say, buffer_roles)
    whose figures, both resolved, differ at every sample of a free parameter (`kv_heads`, the
    device's scales one a head, the host's one a token): whatever that parameter is, within
    the samples, the two sides do not agree, so they are compared at a sample, saying so,
    rather than left unresolved. Both sides' names -> the figures at each sample."""
    if len(points) < 2:
        return {}
    pairs = _paired_buffers(points)
    apart: dict[str, str] = {}
    for host_name, device_name in pairs:
        shown = []
        for point in points:
            host, device = point.host[host_name], point.device[device_name]
            sizes = (host.bytes_per_token_per_layer, device.bytes_per_token_per_layer)
            if not (host.resolved and device.resolved) or sizes[0] == sizes[1]:
                break
            shown.append(f"{sizes[0]} vs {sizes[1]} B at {name}={point.values.get(name)}")
        else:
            apart[host_name] = apart[device_name] = ", ".join(shown)
    return apart


def _block_of_config(block: str | None, values: dict, builds: int) -> list[int | None] | None:
    """Tokens per block of a device pool that reads its block size off its config object
    (`(num_blocks, spec.block_size, ...)`, not kept on `self`): the config point's value of
    that attribute (`CacheSpec.block_size`), when exactly one dimension is it."""
    if block is None:
        return None
    named = [v for k, v in values.items() if k == block or k.endswith("." + block)]
    if len(named) != 1 or not isinstance(named[0], int) or isinstance(named[0], bool):
        return None
    return [named[0]] * builds


def undecided_raises(host: Any) -> list[str]:
    """The `raise` statements of a host's constructor that the interpreter could not decide
    at this point, for a reason inside the audited code (a pointer table, a capacity, an
    argument from the caller's variables). The pair is compared anyway, with the constructor
    assumed to accept, and every report says so: a raise decided by config values makes the
    point infeasible instead (0.5.23's MLA host refusing FP4 records), and one decided by the
    machine the code runs on (a call outside the audited tree, such as the host-memory check
    every HiCache host makes) is no statement about the layout and is passed over."""
    if not isinstance(host, Instance):
        return []
    return [
        f"{host.cls.name}() assumed to accept: {_where(why)}{why.reason}"
        for why in host.may_raise
        if not why.caused_by(Why.OUTSIDE_CALL)
    ]


def assumed_text(points: list[PointResult]) -> str:
    """What a finding's comparison took for granted at its points ("" when nothing)."""
    seen: list[str] = []
    for point in points:
        seen.extend(a for a in point.assumed if a not in seen)
    seen = merge_unset(seen)
    return f"; assumed: {'; '.join(seen)}" if seen else ""


def _where(unknown: Unknown) -> str:
    location = unknown.location
    return f"{location.path}:{location.line}: " if location is not None else ""


class _DeviceSubstitution(cst.CSTTransformer):
    """Replaces the site's device expression (`self.kv_cache`) by a name bound to the device
    pool built at the config point, so `kv_cache.kv_cache_dim` reads the real attribute."""

    def __init__(self, text: str) -> None:
        self.text = text

    def on_leave(self, original_node, updated_node):
        if isinstance(original_node, cst.Attribute):  # `x.kv_cache`: an attribute name stays
            updated_node = updated_node.with_changes(attr=original_node.attr)
        if isinstance(original_node, cst.BaseExpression) and code_of(original_node) == self.text:
            return cst.Name(DEVICE_NAME)
        return updated_node


def _substituted(site: ConstructionSite, name: str) -> cst.BaseExpression | Unknown:
    """The site's argument for `name`, with the device expression replaced, or why it cannot
    be evaluated outside its function (it reads the function's own variables). Syntax only:
    worked out once per site and argument, not per build."""
    memo = site.substituted
    if name not in memo:
        memo[name] = _substitute(site, name)
    return memo[name]


def _substitute(site: ConstructionSite, name: str) -> cst.BaseExpression | Unknown:
    node = site.arguments[name]
    if site.device_text is not None:
        node = node.visit(_DeviceSubstitution(site.device_text))
    names = NamesRead()
    node.visit(names)
    local = sorted((names.names - {DEVICE_NAME}) & site.local_names)
    if local:  # a parameter of the function: its callers' value (not followed)
        why = Why.CALLERS if local[0] in site.parameters else Why.NOT_MODELLED
        return Unknown(f"reads {local[0]!r}, a variable of {site.function}", site.location, why)
    return node


def site_value(
    site: ConstructionSite, name: str, interpreter: Interpreter, device: Instance | None
) -> Any:
    """What the site passes for parameter `name` at this config point (Unknown if it depends
    on something outside the audited code: server arguments, runtime state)."""
    node = _substituted(site, name)
    if is_unknown(node):
        return node
    frame = Frame(site.module, locals_={DEVICE_NAME: device} if device is not None else {})
    try:
        return interpreter.eval(node, frame)
    except Infeasible as signal:
        return Unknown(signal.reason, signal.location)
    except BudgetExceeded as signal:
        return Unknown(signal.reason, signal.location, Why.LIMIT)


def site_config_parameters(site: ConstructionSite, index: ProjectIndex) -> set[str]:
    """Host parameters that take config values at this site: arguments the code takes from
    outside what can be evaluated here, and those a `**kwargs` that is not followed may pass."""
    names = set()
    interpreter = Interpreter(index, ConfigPoint({}))
    for name in parameter_names(site.host):
        if name == site.device_parameter:
            continue
        if name in site.arguments:
            node = _substituted(site, name)
            if is_unknown(node):
                names.add(name)
                continue
            if site.device_text is not None and code_of(node) != code_of(site.arguments[name]):
                continue  # computed from the device pool: fixed by it
            if is_unknown(site_value(site, name, interpreter, None)):
                names.add(name)
        elif site.unfollowed is not None:
            names.add(name)
    return names


def _positive(value: object) -> bool:
    """A positive int (not a bool): a count of tokens."""
    return isinstance(value, int) and not isinstance(value, bool) and value > 0
