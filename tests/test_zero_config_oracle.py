"""Code written with other names and idioms, audited with no configuration at all, against the
meta-device oracle: every pool of fixtures/zero_config/ is built for real (fixtures only) at
every config point the auditor evaluated, with the parameters the auditor inferred for tokens,
layers and the device pool, and every static figure must equal the real one. A buggy tree's
findings are exactly the real disagreements; a fixed tree has neither.

The idioms (issue 14): counts named num_tokens / num_layers / max_num_tokens / n_layers /
capacity / depth, hosts taking `gpu_pool` (untyped, seen by use), `host_pool`, `device_kv`,
`gpu_cache`; a free `ratio: float`; a flag gating a scale buffer the host never mirrors; dtype
parameters without annotations; and two "unseen" codebases: a paged block-table pool
(num_blocks x block_size, block_size free) and a one-slab pool with a leading layer dimension
whose layout flag is a string; an enum option (`scale_mode: ScaleMode = ScaleMode.NONE`,
compared with `is` and `in (...)` through `self.`) gating scales of two widths; counts, sizes
and the dtype read off a config object (`range(shape.n_layers)`, `dtype=shape.kv_dtype`), built
here as an object holding the point's values; the same read through the config's methods
(`model_config.get_num_layers(parallel_config)`), built as methods giving the point's values,
with a swap space reading its block size off the GPU cache it mirrors; and one slab with K
and V first, `(2, num_layers, num_tokens, heads, dim)`.
"""

from __future__ import annotations

import importlib
import inspect
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import torch
from helpers import real_torch
from test_fixtures_oracle import real_buffers, site_kwargs

from auditor.evaluation.evaluate import Evaluation, PointResult
from auditor.evaluation.roles import RoleBook
from auditor.pipeline import AuditResult, audit
from auditor.settings import load_settings

ROOT = Path(__file__).resolve().parent.parent / "fixtures" / "zero_config"
NAMES = sorted(p.name for p in ROOT.iterdir() if p.is_dir())


@contextmanager
def imported(root: Path) -> Iterator[None]:
    """Make the fixture's package importable for real, and only for the test."""
    packages = [p.name for p in root.iterdir() if p.is_dir()]

    def purge() -> None:
        for name in [n for n in sys.modules if n.split(".")[0] in packages]:
            del sys.modules[name]

    purge()
    sys.path.insert(0, str(root))
    importlib.invalidate_caches()
    bytecode, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    try:
        yield
    finally:
        sys.dont_write_bytecode = bytecode
        sys.path.remove(str(root))
        purge()


def load_class(info) -> type:
    value: Any = importlib.import_module(info.module.name)
    for part in info.qualname.removeprefix(info.module.name + ".").split("."):
        value = getattr(value, part)
    return value


def count(
    pool: Any, names: list[str], given: int, block: str | None = None, device: Any = None
) -> int:
    """The built pool's own token (or layer) count, as measure.py reads it: in blocks of its
    `block` tokens, or of its device's when it keeps none (read off the device)."""
    found = given
    for name in names:
        value = getattr(pool, name, None)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            found = value
            break
    if block is None:
        return found
    per_block = getattr(pool, block, None)
    return found * (per_block if per_block is not None else getattr(device, block))


def _returning(value: Any):
    """A method giving `value`, whatever it is passed (`get_num_layers(parallel_config)`)."""
    return lambda *_: value


def build(
    cls: type, values: dict, roles: RoleBook, info, tokens: int, layers: int, device=None, **extra
):
    """A pool built for real; a host with its device's layer count as well (a count both read
    off the config object they take)."""
    parameters = inspect.signature(cls.__init__).parameters
    named = {n: real_torch(v) for n, v in values.items()}
    named.update({n: tokens for n in roles.tokens(info)})
    layer_names = roles.layers(info) + (roles.layers(device) if device is not None else [])
    named.update({n: layers for n in layer_names})
    kwargs = {n: v for n, v in named.items() if n in parameters}
    for name, path in roles.objects(info).items():  # a config object: the point's values
        attributes = {n.split(".", 1)[1]: v for n, v in named.items() if n.startswith(path + ".")}
        methods = {  # `get_num_layers()`: a method giving the point's value, whatever it takes
            n.removesuffix("()"): _returning(v) for n, v in attributes.items() if n.endswith("()")
        }
        attributes = {n: v for n, v in attributes.items() if not n.endswith("()")}
        kwargs[name] = SimpleNamespace(**attributes, **methods)
    kwargs.update(extra)
    for name, parameter in parameters.items():  # an object only passed on (`parallel_config`)
        if name not in kwargs and name != "self" and parameter.default is inspect.Parameter.empty:
            kwargs[name] = None
    if "device" in parameters:
        kwargs["device"] = "meta"
    return cls(**kwargs)


def derive(
    builds: list[tuple[Any, int, int]], roles: RoleBook, info, devices: list | None = None
) -> dict[str, int]:
    """Bytes per token per layer of every buffer, from the four real builds (a host's with the
    four devices it was built with)."""
    measured = [real_buffers(pool) for pool, _, _ in builds]
    counts = [
        (
            count(pool, roles.tokens(info), t, roles.block(info), device[0] if device else None),
            count(pool, roles.layers(info), n),
        )
        for (pool, t, n), device in zip(builds, devices or [None] * len(builds))
    ]
    (s1, l1), (s2, _), (_, l2), _ = counts
    figures = {}
    for name in measured[0]:
        b11, b21, b12, b22 = (m[name] for m in measured)
        numerator = b22 - b12 - b21 + b11
        assert numerator % ((s2 - s1) * (l2 - l1)) == 0, name
        figures[name] = numerator // ((s2 - s1) * (l2 - l1))
    return figures


def real_point(
    evaluation: Evaluation, point: PointResult, result: AuditResult, settings
) -> tuple[dict[str, int], dict[str, int]]:
    roles = result.catalog.roles
    (t1, t2), (l1, l2) = settings.token_counts, settings.layer_counts
    device_cls = load_class(evaluation.device)
    devices, hosts = [], []
    for tokens, layers in ((t1, l1), (t2, l1), (t1, l2), (t2, l2)):
        device = build(device_cls, point.values, roles, evaluation.device, tokens, layers)
        devices.append((device, tokens, layers))
        if evaluation.host is None:
            continue
        host_cls = load_class(evaluation.host)
        if evaluation.site is not None:
            kwargs = site_kwargs(evaluation, point, device)
            for name in roles.tokens(evaluation.host):
                if name in kwargs:
                    kwargs[name] = tokens  # the host's own count, varied as the auditor does
            host = host_cls(**kwargs)
        else:
            [parameter] = [
                n
                for n in roles.device_params(evaluation.host)
                if n in inspect.signature(host_cls.__init__).parameters
            ]
            host = build(
                host_cls,
                point.values,
                roles,
                evaluation.host,
                tokens,
                layers,
                evaluation.device,
                **{parameter: device},
            )
        hosts.append((host, tokens, layers))
    device_figures = derive(devices, roles, evaluation.device)
    host_figures = derive(hosts, roles, evaluation.host, devices) if hosts else {}
    return device_figures, host_figures


@pytest.mark.parametrize("name", NAMES)
def test_zero_config_figures_equal_real_ones(name: str) -> None:
    root = ROOT / name
    settings = load_settings(None)  # no configuration: the default rule pack only
    result = audit([root], settings)
    assert result.errors == [] and result.unresolved == [], (result.errors, result.unresolved)
    assert result.catalog.devices and result.catalog.hosts and result.catalog.pairs
    mismatches: set[tuple[str, str, str]] = set()
    unmirrored: set[str] = set()
    with imported(root):
        for evaluation in result.evaluations:
            assert evaluation.points and not evaluation.truncated
            for point in evaluation.points:
                assert point.failure is None, point
                if point.infeasible is not None:  # the pack's `layout` value: the code refuses it
                    with torch.device("meta"), pytest.raises(ValueError):
                        real_point(evaluation, point, result, settings)
                    continue
                with torch.device("meta"):  # no fixture takes a device: make meta the default
                    device, host = real_point(evaluation, point, result, settings)
                assert set(point.device) == set(device)
                assert set(point.host) == set(host)
                for figures, real in ((point.device, device), (point.host, host)):
                    for buffer, figure in figures.items():
                        assert figure.resolved, figure.unknown
                        assert figure.bytes_per_token_per_layer == real[buffer], (
                            name,
                            buffer,
                            point.values,
                        )
                for buffer, size in host.items():
                    if buffer in device and device[buffer] != size:
                        mismatches.add((evaluation.host.name, evaluation.device.name, buffer))
                if host:
                    unmirrored |= set(device) - set(host)
    reported = {
        (f.host.class_name, f.device.class_name, f.host.buffer)
        for f in result.findings
        if f.code == "LA001"
    }
    assert reported == mismatches
    assert {f.device.buffer for f in result.findings if f.code == "LA003"} == unmirrored
    if name.endswith("_fixed"):
        assert result.findings == []
    else:
        assert result.findings


def test_the_free_ratio_holds_for_any_value() -> None:
    result = audit([ROOT / "free_ratio_buggy"], load_settings(None))
    [finding] = result.findings
    assert finding.message.endswith("holds for any ratio")
    assert finding.as_json()["holds_for_any"] == ["ratio"]  # as data, not only in words
    assert (finding.host.bytes_per_token, finding.device.bytes_per_token) == (512, 2048)


def test_the_gating_flag_names_its_value() -> None:
    result = audit([ROOT / "gating_flag_buggy"], load_settings(None))
    [finding] = result.findings
    assert finding.code == "LA003" and "at use_scales=True" in finding.message


def test_an_untyped_dtype_compared_with_torch_dtypes_is_explored() -> None:
    result = audit([ROOT / "untyped_dtype_buggy"], load_settings(None))
    [finding] = result.findings
    assert "at cache_dtype in {float8_e4m3fn, float8_e5m2}" in finding.message
    varied = {n for e in result.evaluations for n in e.varied}
    assert {"cache_dtype", "index_dtype"} <= varied
    assert torch.float8_e4m3fn in {
        real_torch(p.values["cache_dtype"]) for e in result.evaluations for p in e.points
    }
