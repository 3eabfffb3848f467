"""Host layouts declared in data: a device pool states what its host mirror will hold.

Some engines do not build every host pool from the device pool's formula: a device pool
returns records (an engine's `HostDeclarations`, engines/base.py) naming itself, a storage
record of the host layout (bytes per token per layer, dtype) and a builder whose host class
allocates exactly the declared bytes. A declaration is therefore a host layout paired with the
device pool it is declared for: its bytes per token per layer are compared with the device
buffers that the builder's host class copies (`self.<device-pool parameter>.<buffer>`), by
every check, like a built host. Declarations without a storage record (built another way) are
skipped.
"""

from __future__ import annotations

import itertools
import weakref
from dataclasses import dataclass
from typing import Any

import libcst as cst

from auditor.dtypes import dtype_by_name, dtype_name, is_dtype
from auditor.engines import HostDeclarations, host_declarations
from auditor.evaluation.evaluate import Evaluation, PoolEvaluator
from auditor.evaluation.matrix import dimensions, platform_of
from auditor.evaluation.measure import BufferFigure, buffers_of
from auditor.frontend.index import ClassInfo, ProjectIndex, dotted
from auditor.interpret.control import BudgetExceeded, Infeasible
from auditor.interpret.machine import ConfigPoint, Interpreter
from auditor.interpret.records import field_text
from auditor.interpret.values import FunctionRef, Instance, Unknown, is_unknown
from auditor.location import Location
from auditor.pairing.evidence import Evidence, Pair

PROBE_POINTS = 16  # config points tried to find a device pool's declarations


@dataclass(frozen=True)
class DeclaredLayout:
    """One host layout a device pool declares, at one build."""

    host: ClassInfo  # the host pool class its builder constructs
    buffers: tuple[str, ...]  # device buffers that host class copies
    bytes_per_token_per_layer: Any  # int, or Unknown
    dtype: Any
    location: Location  # where the size is written
    text: str  # the size's expression, as written
    declared_at: Location | None  # the storage record's construction


def _calls_to_classes(index: ProjectIndex, cls: ClassInfo, function: cst.FunctionDef):
    found: list[ClassInfo] = []
    for node in _walk(function.body):
        if isinstance(node, cst.Call):
            name = dotted(node.func)
            target = index.resolve_static(cls.module, name) if name else None
            if isinstance(target, ClassInfo) and target not in found:
                found.append(target)
    return found


def _walk(node: cst.CSTNode):
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


_HOST_OF_BUILDER: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_COPIED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def builder_host_class(index: ProjectIndex, builder: ClassInfo, method: str) -> ClassInfo | Unknown:
    """The host pool class a declaration's builder constructs in its build `method`."""
    memo = _HOST_OF_BUILDER.setdefault(builder, {})
    if method not in memo:
        memo[method] = _builder_host_class(index, builder, method)
    return memo[method]


def _builder_host_class(
    index: ProjectIndex, builder: ClassInfo, method: str
) -> ClassInfo | Unknown:
    build = builder.find_method(method)
    if build is None:
        return Unknown(f"host pool builder {builder.name} has no {method} method", builder.location)
    owner = build.owner or builder
    classes = _calls_to_classes(index, owner, build.node)
    if len(classes) != 1:
        return Unknown(
            f"host pool builder {builder.name}.{method} constructs "
            + (f"{len(classes)} classes" if classes else "no class of the audited tree"),
            owner.module.parsed.location(build.node.name),
        )
    return classes[0]


def copied_device_attributes(host: ClassInfo, device_params: tuple[str, ...]) -> set[str]:
    """Names the host class reads off its device pool (`self.<p>.x`, `<p>.x` for each
    configured device-pool parameter name `p`)."""
    memo = _COPIED.setdefault(host, {})
    if device_params not in memo:
        memo[device_params] = _copied_device_attributes(host, device_params)
    return memo[device_params]


def _copied_device_attributes(host: ClassInfo, device_params: tuple[str, ...]) -> set[str]:
    names: set[str] = set()
    for node in _walk(host.node.body):
        if isinstance(node, cst.Attribute):
            inner = node.value
            if (isinstance(inner, cst.Name) and inner.value in device_params) or (
                isinstance(inner, cst.Attribute) and inner.attr.value in device_params
            ):
                names.add(node.attr.value)
    return names


def declarations(
    interpreter: Interpreter,
    device: Instance,
    index: ProjectIndex,
    spec: HostDeclarations,
    device_params: tuple[str, ...],
) -> list[DeclaredLayout | Unknown]:
    """The host layouts `device` declares, each with the device buffers it covers."""
    method = interpreter.lookup_attribute(device, spec.method, device.cls.location)
    if not isinstance(method, FunctionRef):
        return []
    site = device.cls.location
    returned = interpreter.call(method, [], {}, site)
    if is_unknown(returned):
        return [returned]
    if not isinstance(returned, (list, tuple)):
        return [Unknown(f"{spec.method}() returned no sequence", site)]
    held = buffers_of(device)
    found: list[DeclaredLayout | Unknown] = []
    for declaration in returned:
        if not isinstance(declaration, Instance):
            found.append(Unknown(f"a host pool declaration of {device.cls.name} is unknown", site))
            continue
        storage = declaration.attrs.get(spec.storage_field)
        if storage is None:  # a layout root: its host pool is built from the device pool
            continue
        declared_at = declaration.set_sites.get(spec.storage_field)
        if declaration.attrs.get(spec.device_field) is not device:
            found.append(
                Unknown(
                    "host pool declared for another pool object (a sub-pool) is not followed",
                    declared_at or site,
                )
            )
            continue
        builder = declaration.attrs.get(spec.builder_field)
        if not isinstance(storage, Instance) or not isinstance(builder, Instance):
            found.append(
                Unknown("host pool declaration without a known builder", declared_at or site)
            )
            continue
        host = builder_host_class(index, builder.cls, spec.builder_method)
        if is_unknown(host):
            found.append(host)
            continue
        copied = copied_device_attributes(host, device_params)
        covered = tuple(sorted(n for n in copied if n in held))
        if not covered:
            found.append(
                Unknown(f"{host.name} copies no buffer of {device.cls.name}", host.location)
            )
            continue
        name = spec.size_field
        found.append(
            DeclaredLayout(
                host=host,
                buffers=covered,
                bytes_per_token_per_layer=storage.attrs.get(name),
                dtype=storage.attrs.get(spec.dtype_field),
                location=storage.set_sites.get(name) or declared_at or site,
                text=field_text(storage, name),
                declared_at=declared_at,
            )
        )
    return found


def declared_figures(builds: list, host: ClassInfo) -> dict[str, BufferFigure]:
    """Figures of `host`'s declared layouts: the declared bytes must not change between builds."""
    per_build = [
        [d for d in layouts if not is_unknown(d) and d.host is host] for layouts, *_ in builds
    ]
    figures: dict[str, BufferFigure] = {}
    for layout in per_build[0]:
        name = " + ".join(layout.buffers)
        values = [
            next((d.bytes_per_token_per_layer for d in found if d.buffers == layout.buffers), None)
            for found in per_build
        ]
        value = layout.bytes_per_token_per_layer
        unknown = next((v for v in values if is_unknown(v)), None)
        if unknown is None and not all(
            isinstance(v, int) and not isinstance(v, bool) and v == value for v in values
        ):
            unknown = Unknown(
                "declared bytes per token per layer change with the token or layer count"
                if all(isinstance(v, int) for v in values)
                else "declared bytes per token per layer are not an integer",
                layout.location,
            )
        if unknown is None and len(layout.buffers) > 1:
            unknown = Unknown(
                f"{layout.host.name} copies several device buffers ({', '.join(layout.buffers)}): "
                "one declared size for their sum is not compared",
                layout.location,
            )
        if unknown is not None:
            figures[name] = BufferFigure(name, layout.location, unknown=unknown)
            continue
        dtype = dtype_name(layout.dtype) if is_dtype(layout.dtype) else None
        expression = f"{layout.text} = " if layout.text and layout.text != str(value) else ""
        figures[name] = BufferFigure(
            name,
            layout.location,
            bytes_per_token_per_layer=value,
            dtype=dtype,
            arithmetic=(
                f"declared bytes_per_token_per_layer = {expression}{value} B/token/layer"
                + (f" of {dtype}" if dtype else "")
            ),
        )
    return figures


def _slot_check(declared: BufferFigure, device: BufferFigure) -> BufferFigure:
    """A declared size counts bytes per host token slot; a device buffer holding a whole
    multiple of it per pool token may index more slots than the pool has tokens (HiSparse sizes
    its index-K by host slots: `index_buf_size = size * host_to_device_ratio`). Per slot the
    two may agree; that is not followed, so such a pair is unresolved rather than reported."""
    size, held = declared.bytes_per_token_per_layer, device.bytes_per_token_per_layer
    if _dtype_widened(declared, device, size, held):
        return declared  # the element type changed, not the slots: compared (the incident)
    if size and held and held != size and held % size == 0:
        return BufferFigure(
            declared.name,
            declared.location,
            unknown=Unknown(
                f"device buffer holds {held // size} x the declared {size} B per pool token: "
                "it may index other slots than the pool's tokens (not followed)",
                declared.location,
            ),
        )
    return declared


def _dtype_widened(declared: BufferFigure, device: BufferFigure, size, held) -> bool:
    """The device buffer's element is that many times wider than the declared layout's (bf16
    rows against a declared uint8 layout: 264 against 132): the multiple is the dtype's."""
    if not (size and held and declared.dtype and device.dtype):
        return False
    ours, theirs = dtype_by_name(declared.dtype), dtype_by_name(device.dtype)
    if ours is None or theirs is None or ours.itemsize == theirs.itemsize:
        return False
    return held * ours.itemsize == size * theirs.itemsize


class DeclaredEvaluation(Evaluation):
    """An evaluation whose host side is a declared layout: a mirror of chosen buffers only."""


def is_declared(evaluation: Evaluation) -> bool:
    return isinstance(evaluation, DeclaredEvaluation)


class DeclaredHostEvaluator(PoolEvaluator):
    """Evaluates a device pool with, as its host side, the layouts it declares for one host
    class (the host class itself is not built: the declaration is its layout)."""

    lanes = False  # its host side is a list of declarations, which lanes.py does not split

    def build_host(self, host_cls, interpreter, values, device):
        return [
            layout
            for spec in host_declarations()
            for layout in declarations(
                interpreter, device, self.index, spec, tuple(self.settings.device_pool_params)
            )
        ]

    def measure_host(self, builds, host_cls, devices, values):
        return declared_figures(builds, host_cls)

    def run_point(self, device_cls, host_cls, values, site=None):
        result, reads = super().run_point(device_cls, host_cls, values, site)
        for name, declared in list(result.host.items()):
            device = result.device.get(name)
            if declared.resolved and device is not None and device.resolved:
                result.host[name] = _slot_check(declared, device)
        return result, reads

    def evaluate(
        self, device_cls: ClassInfo, host_cls: ClassInfo | None = None, site=None
    ) -> Evaluation:
        return DeclaredEvaluation(**vars(super().evaluate(device_cls, host_cls, site)))

    def declared_pairs(self, devices: list[ClassInfo]) -> tuple[list[Pair], list[Unknown]]:
        """(device, host class) pairs found by reading each device pool's declarations at the
        first config points where it can be built."""
        pairs: list[Pair] = []
        unresolved: list[Unknown] = []
        for device, spec in itertools.product(devices, host_declarations()):
            if device.find_method(spec.method) is None:
                continue
            layouts = self._probe(device, spec)
            for layout in layouts:
                if is_unknown(layout):
                    unresolved.append(
                        Unknown(
                            f"{device.name}: declared host layout: {layout.reason}",
                            layout.location,
                            cause=layout,
                        )
                    )
            hosts = []
            for layout in layouts:
                if not is_unknown(layout) and layout.host not in hosts:
                    hosts.append(layout.host)
                    where = layout.declared_at or layout.location
                    said = Evidence.by_declaration(f"{device.name}.{spec.method}()", where)
                    pairs.append(Pair(layout.host, device, said))
        return pairs, unresolved

    def _probe(self, device: ClassInfo, spec: HostDeclarations) -> list[DeclaredLayout | Unknown]:
        settings = self.settings
        dims = dimensions([device], settings)
        platform = platform_of(device, settings)
        if platform is not None:
            dims.update(platform[1])
        combos = itertools.product(*(dim.values for dim in dims.values()))
        for combo in itertools.islice(combos, PROBE_POINTS):
            values = dict(zip(dims, combo))
            values.update({name: settings.token_counts[0] for name in settings.token_params})
            values.update(
                {
                    n: settings.layer_value(n, settings.layer_counts[0])
                    for n in settings.layer_names()
                }
            )
            interpreter = Interpreter(self.index, ConfigPoint(values), self.limits)
            try:
                built = self._build(device, interpreter, values)
                params = tuple(settings.device_pool_params)
                return declarations(interpreter, built, self.index, spec, params)
            except (Infeasible, BudgetExceeded, RecursionError):
                continue
        return []
