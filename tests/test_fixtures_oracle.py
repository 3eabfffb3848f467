"""The oracle: build every fixture's pools for real, on torch's meta device, and measure them.

The auditor never runs audited code; this test does (fixtures only), at every config point
the auditor evaluated, with the same constructor arguments, and derives bytes per token per
layer from the real tensors exactly as auditor/evaluation/measure.py does from its abstract ones:

    a = (B22 - B12 - B21 + B11) / ((s2 - s1) * (l2 - l1))

where B(s, l) sums `nbytes` over a buffer's tensors and s, l are the built pool's own token
and layer counts. Every figure the auditor computed statically must equal the real one.
"""

from __future__ import annotations

import importlib
import inspect
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import torch
from helpers import real_torch

from auditor.evaluation.evaluate import Evaluation, PointResult
from auditor.evaluation.measure import looks_like_buffer
from auditor.evaluation.site_run import runnable
from auditor.pipeline import AuditResult, audit
from auditor.settings import Settings, find_config, load_settings

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
PACKAGE = "sglang"  # every fixture tree is an SGLang-like package of this name
# single fixtures (no buggy/fixed twin) in which every real size agrees
AGREEING = ["dispatch_subclass"]
NAMES = (
    sorted(
        path.name
        for path in FIXTURES.iterdir()
        if path.is_dir()
        and (path.name.endswith("_buggy") or path.name.endswith("_fixed"))
        # vLLM trees have no pools: tests/test_vllm_oracle.py builds their specs for real
        and not path.name.startswith("vllm_")
    )
    + AGREEING
)


def _purge_package() -> None:
    for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
        del sys.modules[name]


@contextmanager
def imported_fixture(root: Path) -> Iterator[None]:
    """Make `root`'s `sglang` importable for real; no other tree's `sglang` before or after."""
    _purge_package()
    sys.path.insert(0, str(root))
    importlib.invalidate_caches()
    bytecode, sys.dont_write_bytecode = sys.dont_write_bytecode, True  # no __pycache__ in fixtures
    try:
        yield
    finally:
        sys.dont_write_bytecode = bytecode
        sys.path.remove(str(root))
        _purge_package()


def tensors_of(value: Any) -> list[torch.Tensor] | None:
    """The tensors an attribute holds: a tensor, or a (nested) list or tuple of tensors."""
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)) and value:
        found: list[torch.Tensor] = []
        for item in value:
            inner = tensors_of(item)
            if inner is None:
                return None
            found.extend(inner)
        return found
    return None


def buffer_properties(pool: Any) -> dict[str, Any]:
    """Values of the pool's properties named like buffers (storage kept on a helper object)."""
    names = {
        name
        for klass in type(pool).__mro__
        for name, member in vars(klass).items()
        if isinstance(member, property) and looks_like_buffer(name)
    }
    return {name: getattr(pool, name) for name in sorted(names) if name not in vars(pool)}


def real_buffers(pool: Any, device: Any = None) -> dict[str, int]:
    """Total bytes of every tensor-holding attribute (or buffer property) of a built pool.

    As the auditor counts storage (measure.buffers_of, held_from): an attribute holding only
    views of tensors another attribute holds (`self.rows = list(self.slab.unbind(0))`) is that
    storage again, and a host attribute holding the paired `device` pool's own tensors
    (`self.device_slab = buffer_info.slab`) is no host storage; both are left out."""
    held = {}
    for name, value in {**vars(pool), **buffer_properties(pool)}.items():
        tensors = tensors_of(value)
        if tensors is not None:
            assert all(t.device.type == "meta" for t in tensors), name
            held[name] = tensors
    theirs = {id(t) for t in real_tensors(device)} if device is not None else set()
    bases = {id(t) for tensors in held.values() for t in tensors if t._base is None}

    def of(t: torch.Tensor, ids: set[int]) -> bool:
        return id(t) in ids or (t._base is not None and id(t._base) in ids)

    return {
        name: sum(t.nbytes for t in tensors)
        for name, tensors in held.items()
        if not all(of(t, theirs) for t in tensors)
        and not all(t._base is not None and id(t._base) in bases for t in tensors)
    }


def real_tensors(pool: Any) -> list[torch.Tensor]:
    """Every tensor a built pool holds."""
    found = []
    for value in {**vars(pool), **buffer_properties(pool)}.values():
        found.extend(tensors_of(value) or [])
    return found


def count(pool: Any, names: list[str], given: int) -> int:
    """The pool's own token (or layer) count, as the auditor reads it off a built pool."""
    for name in names:
        value = getattr(pool, name, None)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
    return given


@dataclass
class RealFigure:
    per_token_per_layer: int
    per_token: int


def derive(
    builds: list[tuple[Any, int, int]], settings: Settings, devices: list | None = None
) -> tuple[dict[str, RealFigure], set[str]]:
    """Figures of every buffer from the four real builds (s1,l1), (s2,l1), (s1,l2), (s2,l2);
    `devices`: the device pool each host build was given (its tensors are not the host's)."""
    paired = devices or [None] * len(builds)
    measured = [real_buffers(pool, device) for (pool, _, _), device in zip(builds, paired)]
    names = set(measured[0])
    assert all(set(m) == names for m in measured), measured
    counts = [
        (count(pool, settings.token_params, t), count(pool, settings.layer_params, n))
        for pool, t, n in builds
    ]
    (s1, l1), (s2, _), (_, l2), _ = counts
    assert s1 != s2 and l1 != l2, counts
    figures = {}
    for name in names:
        b11, b21, b12, b22 = (m[name] for m in measured)
        numerator = b22 - b12 - b21 + b11
        denominator = (s2 - s1) * (l2 - l1)
        assert numerator % denominator == 0, (name, numerator, denominator)
        a = numerator // denominator
        per_token = (b21 - b11) - a * (s2 - s1) * l1
        assert per_token % (s2 - s1) == 0, (name, per_token)
        figures[name] = RealFigure(a, per_token // (s2 - s1))
    return figures, names


def constructor_kwargs(cls: type, values: dict[str, Any], settings: Settings) -> dict[str, Any]:
    """The arguments the auditor passed: config values for the parameters it had values for."""
    parameters = inspect.signature(cls.__init__).parameters
    skipped = set(settings.token_params) | set(settings.layer_params)
    skipped |= set(settings.device_pool_params)
    kwargs = {
        name: real_torch(value)
        for name, value in values.items()
        if name in parameters and name not in skipped
    }
    if "device" in parameters:
        kwargs["device"] = "meta"
    if "pin_memory" in parameters:
        kwargs["pin_memory"] = False
    return kwargs


def load_class(info) -> type:
    module = importlib.import_module(info.module.name)
    value: Any = module
    for part in info.qualname.removeprefix(info.module.name + ".").split("."):
        value = getattr(value, part)
    assert inspect.isclass(value), info.qualname
    return value


def allow_meta_allocations(host_cls: type, monkeypatch: pytest.MonkeyPatch) -> None:
    """Host pools that allocate through `ALLOC_MEMORY_FUNCS[device]` get a "meta" entry."""
    module = sys.modules[host_cls.__module__]
    table = getattr(module, "ALLOC_MEMORY_FUNCS", None)
    if isinstance(table, dict) and "meta" not in table:
        monkeypatch.setitem(table, "meta", table.get("cpu") or next(iter(table.values())))


def site_kwargs(evaluation: Evaluation, point: PointResult, device: Any) -> dict[str, Any]:
    """The host's arguments as its call site writes them, evaluated for real: the device pool
    for the device expression; runtime values the site reads (server arguments) are not in the
    fixture, and take the config point's value for that parameter, as the auditor does."""
    site = evaluation.site
    namespace = dict(vars(importlib.import_module(site.module.name)))
    kwargs: dict[str, Any] = {}
    for name, node in site.arguments.items():
        if name == site.device_parameter and not site.via_record:  # a record is built below
            kwargs[name] = device
            continue
        text = site.module.parsed.code(node)
        if site.device_text is not None:
            text = re.sub(rf"(?<![\w.]){re.escape(site.device_text)}(?!\w)", "__device__", text)
        try:
            kwargs[name] = eval(text, namespace, {"__device__": device})  # fixture code only
        except NameError:
            kwargs[name] = real_torch(point.values[name])
    return kwargs


def build_device(evaluation: Evaluation, point: PointResult, settings: Settings, tokens, layers):
    device_cls = load_class(evaluation.device)
    kwargs = constructor_kwargs(device_cls, point.values, settings)
    parameters = inspect.signature(device_cls.__init__).parameters
    kwargs.update({n: tokens for n in settings.token_params if n in parameters})
    kwargs.update({n: layers for n in settings.layer_params if n in parameters})
    return device_cls(**kwargs)


def build_host(evaluation: Evaluation, point: PointResult, settings: Settings, device: Any) -> Any:
    """The host as the auditor built it beside `device`: declared, by running its site, from
    the site's arguments, or from the config and the device."""
    host_cls = load_class(evaluation.host)
    if declared_host(evaluation):
        return build_declared_host(device, host_cls)
    if _run_site(evaluation):
        return run_site_for_real(evaluation, point, device, host_cls)
    if evaluation.site is not None:
        kwargs = site_kwargs(evaluation, point, device)
        parameters = inspect.signature(host_cls.__init__).parameters
        kwargs.update(
            {n: v for n, v in (("device", "meta"), ("pin_memory", False)) if n in parameters}
        )
        return host_cls(**kwargs)
    kwargs = constructor_kwargs(host_cls, point.values, settings)
    parameters = inspect.signature(host_cls.__init__).parameters
    [device_param] = [n for n in settings.device_pool_params if n in parameters]
    kwargs[device_param] = device
    return host_cls(**kwargs)


def build_point(
    evaluation: Evaluation, point: PointResult, settings: Settings
) -> tuple[list[tuple[Any, int, int]], list[tuple[Any, int, int]]]:
    (t1, t2), (l1, l2) = settings.token_counts, settings.layer_counts
    device_builds, host_builds = [], []
    for tokens, layers in ((t1, l1), (t2, l1), (t1, l2), (t2, l2)):
        device = build_device(evaluation, point, settings, tokens, layers)
        device_builds.append((device, tokens, layers))
        if evaluation.host is not None:
            host_builds.append((build_host(evaluation, point, settings, device), tokens, layers))
    return device_builds, host_builds


def _run_site(evaluation: Evaluation) -> bool:
    """Sites the auditor ran through their function, when the fixture's function can be called
    with the config point's values and the device alone (no other required parameter)."""
    site = evaluation.site
    if site is None or not runnable(site):
        return False
    function = getattr(importlib.import_module(site.module.name), site.function.rsplit(".", 1)[-1])
    required = [
        name
        for name, parameter in inspect.signature(function).parameters.items()
        if parameter.default is inspect.Parameter.empty and name != site.device_text
    ]
    return all(name in evaluation.points[0].values for name in required)


def run_site_for_real(evaluation: Evaluation, point: PointResult, device: Any, host_cls: type):
    """Call the function holding the construction site for real (the auditor ran it in its
    interpreter, site_run.py), with the device pool as its pool parameter and the config
    point's values for the others, and keep the host it builds (on the meta device)."""
    site = evaluation.site
    function = getattr(importlib.import_module(site.module.name), site.function.rsplit(".", 1)[-1])
    parameters = inspect.signature(function).parameters
    kwargs = {name: real_torch(point.values[name]) for name in parameters if name in point.values}
    kwargs[site.device_text] = device
    built: list[Any] = []
    original = host_cls.__init__

    def init(self, *args, **kw):
        if "device" in inspect.signature(original).parameters:
            kw["device"] = "meta"
        original(self, *args, **kw)
        built.append(self)

    own = "__init__" in vars(host_cls)
    host_cls.__init__ = init
    try:
        function(**kwargs)
    finally:
        if own:
            host_cls.__init__ = original
        else:
            del host_cls.__init__
    hosts = [h for h in built if type(h) is host_cls]
    assert len(hosts) <= 1
    return hosts[0] if hosts else None


def declared_host(evaluation: Evaluation) -> bool:
    return any(
        pair.host is evaluation.host and pair.evidence.text().startswith("declared by")
        for pair in DECLARED_PAIRS
    )


def build_declared_host(device: Any, host_cls: type) -> Any:
    """A host pool the device declares (`host_pool_decls()`), built by its own builder as the
    SGLang assembler does, on an anchor holding the device's token slots."""
    for decl in device.host_pool_decls():
        if decl.storage_info is not None and decl.host_pool_builder is not None:
            anchor = SimpleNamespace(size=device.size, page_size=device.page_size)
            host = decl.host_pool_builder.build(decl=decl, anchor_host=anchor)
            if type(host) is host_cls:
                return host
    raise AssertionError(f"{type(device).__name__} declares no {host_cls.__name__}")


NOT_BUFFER_BUGS = {"la002_size_per_token", "la003_scale_buffer"}
DECLARED_PAIRS: list = []  # the pairs of the fixture being checked


@dataclass
class Comparison:
    evaluation: Evaluation
    point: PointResult
    side: str
    buffer: str
    real: RealFigure


def audit_fixture(root: Path) -> tuple[Settings, AuditResult]:
    settings = load_settings(find_config([root]))
    return settings, audit([root], settings)


def oracle(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> tuple[Settings, AuditResult, list[Comparison]]:
    """Audit one fixture, rebuild every evaluated point for real, and compare every figure."""
    root = FIXTURES / name
    settings, result = audit_fixture(root)
    assert result.errors == [] and result.unresolved == [], (result.errors, result.unresolved)
    DECLARED_PAIRS[:] = result.catalog.pairs
    assert result.evaluations
    comparisons: list[Comparison] = []
    with imported_fixture(root):
        for evaluation in result.evaluations:
            if evaluation.host is not None:
                allow_meta_allocations(load_class(evaluation.host), monkeypatch)
            assert evaluation.points and not evaluation.truncated
            for point in evaluation.points:
                if point.infeasible is not None and _run_site(evaluation):
                    # the function holding the call builds another host class here, for real
                    device = build_device(evaluation, point, settings, 16, 2)
                    host_cls = load_class(evaluation.host)
                    assert run_site_for_real(evaluation, point, device, host_cls) is None
                    continue
                if point.infeasible is not None and not point.refused_by_host:
                    # the device pool refuses this point (its own assert or raise), for real too
                    with pytest.raises((AssertionError, ValueError, NotImplementedError)):
                        build_device(evaluation, point, settings, 16, 2)
                    continue
                if point.infeasible is not None:
                    # the host refuses this point (a layout it does not move), for real too:
                    # the device builds there, and the host's constructor raises
                    assert evaluation.host is not None and not _run_site(evaluation), point
                    device = build_device(evaluation, point, settings, 16, 2)
                    with pytest.raises((AssertionError, ValueError, NotImplementedError)):
                        build_host(evaluation, point, settings, device)
                    continue
                assert point.failure is None and point.infeasible is None, point
                device_builds, host_builds = build_point(evaluation, point, settings)
                devices = [pool for pool, _, _ in device_builds]
                sides = [("device", device_builds, point.device, None)]
                if evaluation.host is not None:
                    sides.append(("host", host_builds, point.host, devices))
                for side, builds, static, paired in sides:
                    real, names = derive(builds, settings, paired)
                    # every buffer the real pool holds was measured, and nothing else
                    assert set(static) == names, (side, point.values, set(static), names)
                    for buffer, figure in static.items():
                        where = (
                            f"{name}: {evaluation.device.name} {side}.{buffer} at {point.values}"
                        )
                        assert figure.resolved, (where, figure.unknown)
                        got = (figure.bytes_per_token_per_layer, figure.bytes_per_token)
                        want = (real[buffer].per_token_per_layer, real[buffer].per_token)
                        assert got == want, (where, figure.arithmetic)
                        comparisons.append(
                            Comparison(evaluation, point, side, buffer, real[buffer])
                        )
    return settings, result, comparisons


@dataclass(frozen=True)
class Mismatch:
    host: str
    device: str
    buffer: str
    values: dict[str, Any]
    host_bytes: int
    device_bytes: int


def real_mismatches(comparisons: list[Comparison], settings: Settings) -> list[Mismatch]:
    """Host buffers whose real size differs from their device counterpart's (with buffer-map)."""
    points: dict[int, tuple[Comparison, dict[str, dict[str, RealFigure]]]] = {}
    for c in comparisons:
        _, sides = points.setdefault(id(c.point), (c, {"device": {}, "host": {}}))
        sides[c.side][c.buffer] = c.real
    found = []
    for c, sides in points.values():
        device = sides["device"]
        for buffer, host in sides["host"].items():
            names = [buffer] if buffer in device else settings.buffer_map.get(buffer, [])
            if not names or not all(n in device for n in names):
                names = sole_storage(buffer, sides["host"], device, settings)
            if not names:
                continue
            device_bytes = sum(device[n].per_token_per_layer for n in names)
            if host.per_token_per_layer != device_bytes:
                found.append(
                    Mismatch(
                        c.evaluation.host.name,
                        c.evaluation.device.name,
                        buffer,
                        c.point.values,
                        host.per_token_per_layer,
                        device_bytes,
                    )
                )
    return found


def sole_storage(
    buffer: str,
    host: dict[str, RealFigure],
    device: dict[str, RealFigure],
    settings: Settings,
) -> list[str]:
    """A mirror under other names (docs/pairing.md): no host buffer names a device buffer (nor
    a buffer-map entry), and each side holds one storage growing with tokens and layers."""
    for name in host:
        mapped = settings.buffer_map.get(name, [])
        if name in device or (mapped and all(n in device for n in mapped)):
            return []
    own = [n for n, f in host.items() if f.per_token_per_layer]
    theirs = [n for n, f in device.items() if f.per_token_per_layer]
    return theirs if own == [buffer] and len(theirs) == 1 else []


@pytest.mark.parametrize("name", NAMES)
def test_static_figures_equal_real_measurements(name: str, monkeypatch) -> None:
    settings, result, comparisons = oracle(name, monkeypatch)
    assert len(comparisons) > 0
    # both sides of every pair were compared
    assert {c.side for c in comparisons} == {"device", "host"}
    mismatches = real_mismatches(comparisons, settings)
    buffer_findings = [f for f in result.findings if f.code == "LA001"]
    if name.removesuffix("_buggy") in NOT_BUFFER_BUGS:
        # their bug is not a buffer size (tests/test_checks_la002_la003.py has their oracle)
        assert mismatches == [] and buffer_findings == []
    elif not name.endswith("_buggy"):
        # ground truth, independent of the auditor: the fix really makes the sizes agree
        assert mismatches == []
        assert result.findings == []
    else:
        # the bug is real, and the auditor reports exactly the real disagreements
        assert mismatches
        reported = {
            (f.host.class_name, f.device.class_name, f.host.buffer, len(f.points))
            for f in buffer_findings
        }
        real: dict[tuple[str, str, str], int] = {}
        for m in mismatches:
            real[(m.host, m.device, m.buffer)] = real.get((m.host, m.device, m.buffer), 0) + 1
        assert reported == {key + (n,) for key, n in real.items()}


def test_the_oracle_sees_the_incident(monkeypatch) -> None:
    """Built for real, the buggy incident's host holds 132 B/token/layer of index K where the
    device holds 256, exactly where index_k_dtype is bf16, in each layout it moves; the
    auditor's figures agree."""
    settings, _, comparisons = oracle("incident_buggy", monkeypatch)
    mismatches = real_mismatches(comparisons, settings)
    assert mismatches
    for m in mismatches:
        assert (m.host, m.device, m.buffer) == (
            "MLATokenToKVPoolHost",
            "DeepSeekV4TokenToKVPool",
            "index_k_with_scale_buffer",
        )
        assert m.values["index_k_dtype"] == torch.bfloat16
        assert (m.host_bytes, m.device_bytes) == (132, 256)
    by_layout = {}
    for m in mismatches:
        by_layout[m.values["layout"]] = by_layout.get(m.values["layout"], 0) + 1
    # page_first_direct is refused by the host (it raises), so it has no figure to compare
    assert by_layout == {"layer_first": 8, "page_first": 8}
    static = [
        c
        for c in comparisons
        if c.buffer == "index_k_with_scale_buffer"
        and c.point.values["index_k_dtype"] == torch.bfloat16
    ]
    assert {(c.side, c.real.per_token_per_layer) for c in static} == {
        ("host", 132),
        ("device", 256),
    }


def test_fixture_import_is_undone() -> None:
    """The oracle imports fixture code; nothing of it may stay behind for other tests."""
    assert not any(n == PACKAGE or n.startswith(PACKAGE + ".") for n in sys.modules)
    assert not any(str(FIXTURES) in entry for entry in sys.path)


def test_a_call_site_forgetting_an_override_really_disagrees(monkeypatch) -> None:
    """Built for real with each site's own arguments: only the decode-offload call (no
    override_kv_cache_dim) gives NSA fp8 a 576-byte host row against the device's 656."""
    settings, result, comparisons = oracle("forgotten_override_buggy", monkeypatch)
    mismatches = real_mismatches(comparisons, settings)
    sites = {id(c.point): c.evaluation.site for c in comparisons}
    assert mismatches
    for m in mismatches:
        assert (m.host, m.device, m.host_bytes, m.device_bytes) == (
            "MLATokenToKVPoolHost",
            "NSATokenToKVPool",
            576,
            656,
        )
    wrong_sites = {
        sites[id(c.point)].module.path
        for c in comparisons
        if c.side == "host"
        and c.real.per_token_per_layer == 576
        and c.evaluation.device.name == "NSATokenToKVPool"
        and c.point.values["dtype"] == torch.float8_e4m3fn
    }
    assert [Path(p).name for p in wrong_sites] == ["decode_offload.py"]


def test_a_host_built_from_buffer_info_really_disagrees_for_e5m2(monkeypatch) -> None:
    """Built for real from the record the device pool makes (`kv_pool.get_buffer_info()`),
    the buggy host's K rows are 2048 B/token/layer against the device's 1024, for float8_e5m2
    only; the MLA pool, whose record is an MLABufferInfo, is not paired, and really cannot
    build this host."""
    settings, result, comparisons = oracle("buffer_info_buggy", monkeypatch)
    mismatches = real_mismatches(comparisons, settings)
    assert mismatches
    for m in mismatches:
        assert (m.host, m.device, m.buffer) == (
            "MHATokenToKVPoolHost",
            "MHATokenToKVPool",
            "k_buffer",
        )
        assert m.values["dtype"] == torch.float8_e5m2
        assert (m.host_bytes, m.device_bytes) == (2048, 1024)
    assert len(mismatches) == 2  # two page sizes
    assert [(p.host.name, p.device.name) for p in result.catalog.pairs] == [
        ("MHATokenToKVPoolHost", "MHATokenToKVPool")
    ]
    with imported_fixture(FIXTURES / "buffer_info_buggy"):
        from sglang.srt.mem_cache.memory_pool import MLATokenToKVPool
        from sglang.srt.mem_cache.memory_pool_host import MHATokenToKVPoolHost

        mla = MLATokenToKVPool(8, 1, torch.bfloat16, 512, 64, 2, device="meta")
        with pytest.raises(AttributeError):
            MHATokenToKVPoolHost(mla.get_buffer_info(), 2.0, 1, device_capacity_tokens=8)
