"""A state pool keeping its tensors in a record, mirrored by a host built from the pool's
transfer record that a caller hands down (SGLang 0.5.23's `MambaPool` / `MambaPoolHost`).

Four things meet here, each tested on its own below: the pool's model shapes come as an
object whose attributes the matrix lists (`cache_params.shape.temporal`); its state record is a
dataclass nested in the pool class (`self.State(...)`), whose fields are the pool's buffers
(`mamba_cache.temporal`); the host's assembler reads the record off a parameter its caller
unpacked from the pool (`(info,) = pool.get_device_pool_infos()`); the host sizes itself with
`np.prod`. The oracle builds both pools for real on torch's meta device.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from helpers import (
    assert_unknown,
    evaluate,
    import_file,
    real_bytes_per_token_per_layer,
    settings_and_audit,
    write_tree,
)

POOLS = """
    from dataclasses import dataclass

    import numpy as np
    import torch


    @dataclass(frozen=True, kw_only=True)
    class StateInfo:
        temporal: torch.Tensor
        conv: tuple


    @dataclass(frozen=True)
    class PoolInfo:
        buffer_info: StateInfo


    class StatePool:
        @dataclass(frozen=True, kw_only=True)
        class State:
            conv: list
            temporal: torch.Tensor

        def __init__(self, *, size: int, cache_params, mamba_layer_ids: list, device: str):
            layers = len(mamba_layer_ids)
            self.size = size
            conv = [
                torch.zeros((layers, size + 1) + shape, dtype=cache_params.dtype.conv, device=device)
                for shape in cache_params.shape.conv
            ]
            temporal = torch.zeros(
                (layers, size + 1) + cache_params.shape.temporal,
                dtype=cache_params.dtype.temporal,
                device=device,
            )
            self.mamba_cache = self.State(conv=conv, temporal=temporal)
            self.groups = getattr(cache_params.shape, "conv_groups", None)

        def get_device_pool_infos(self):
            return (
                PoolInfo(
                    StateInfo(temporal=self.mamba_cache.temporal, conv=tuple(self.mamba_cache.conv))
                ),
            )


    class StateHost:
        def __init__(self, buffer_info: StateInfo, ratio: float, *, device_capacity: int):
            layers = buffer_info.temporal.shape[0]
            self.size = int(device_capacity * ratio)
            shape = buffer_info.temporal.shape[2:]
            assert int(np.prod(shape)) > 0
            self.temporal_buffer = torch.empty(
                (self.size, layers) + tuple(shape), dtype={host_dtype}, device="meta"
            )
            self.conv_buffer = [
                torch.empty((self.size, layers) + tuple(c.shape[2:]), dtype=c.dtype, device="meta")
                for c in buffer_info.conv
            ]


    def build_host(pool, pool_info, ratio: float = 2.0):
        return StateHost(pool_info.buffer_info, ratio, device_capacity=pool.size)


    def build_stack(pool):
        (info,) = pool.get_device_pool_infos()
        return build_host(pool, info)
"""

BUGGY, FIXED = "torch.bfloat16", "buffer_info.temporal.dtype"


def _tree(root: Path, host_dtype: str, pools: str = POOLS) -> Path:
    text = pools.replace("{host_dtype}", host_dtype)
    return write_tree(root, {"serve/__init__.py": "", "serve/state.py": text})


def test_the_host_is_paired_through_the_caller_and_its_drift_found(tmp_path):
    _, result = settings_and_audit(_tree(tmp_path, BUGGY))
    assert result.coverage.line() == "1 of 1 pairs compared"
    [finding] = result.findings
    assert (finding.code, finding.host.class_name, finding.device.class_name) == (
        "LA001",
        "StateHost",
        "StatePool",
    )
    # the pack's SSM state: 32 x 128 x 128 in fp32 on the device, bf16 rows on the host
    assert "1048576 B/token/layer vs 2097152 B/token/layer" in finding.message
    [pair] = result.catalog.pairs
    said = pair.evidence.text()
    assert "buffer_info=pool.get_device_pool_infos()[0].buffer_info" in said
    assert "pool_info = pool.get_device_pool_infos()[0], as build_stack() passes it" in said


def test_the_fixed_host_agrees_and_matches_the_real_pools(tmp_path, monkeypatch):
    """The oracle: both pools built for real on the meta device at the audit's counts, with the
    pack's model shapes; the device's bytes per slot per layer and the host's per row per layer
    equal the static figures of each buffer."""
    torch = pytest.importorskip("torch")
    root = _tree(tmp_path, FIXED)
    settings, result = settings_and_audit(root)
    assert result.findings == []
    assert result.coverage.line() == "1 of 1 pairs compared"
    [evaluation] = result.evaluations
    # numpy is not a dependency: the pools use only its product of a shape
    monkeypatch.setitem(sys.modules, "numpy", SimpleNamespace(prod=math.prod))
    module = import_file(root / "serve" / "state.py", "state_record_oracle")
    params = SimpleNamespace(
        shape=SimpleNamespace(conv=((8192, 3),), temporal=(32, 128, 128)),
        dtype=SimpleNamespace(conv=torch.bfloat16, temporal=torch.float32),
    )
    assert evaluation.feasible
    for point in evaluation.feasible:
        sides: list[dict] = [{}, {}, {}, {}]
        for tokens in settings.token_counts:
            for layers in settings.layer_counts:
                pool = module.StatePool(
                    size=tokens,
                    cache_params=params,
                    mamba_layer_ids=list(range(layers)),
                    device="meta",
                )
                (info,) = pool.get_device_pool_infos()
                host = module.StateHost(info.buffer_info, 2.0, device_capacity=tokens)
                state = pool.mamba_cache
                for side, (rows, tensor) in zip(
                    sides,
                    (
                        (tokens, state.temporal),
                        (tokens, state.conv[0]),
                        (host.size, host.temporal_buffer),
                        (host.size, host.conv_buffer[0]),
                    ),
                ):
                    side[tokens, layers] = (rows, tensor.nbytes)
        names = (
            ("device", "mamba_cache.temporal"),
            ("device", "mamba_cache.conv"),
            ("host", "temporal_buffer"),
            ("host", "conv_buffer"),
        )
        for side, (where, name) in zip(sides, names):
            figure = getattr(point, where)[name]
            real = real_bytes_per_token_per_layer(side, settings)
            assert figure.bytes_per_token_per_layer == real, (where, name)


def test_a_record_the_caller_does_not_read_off_the_pool_stays_unresolved(tmp_path):
    pools = POOLS.replace(
        "(info,) = pool.get_device_pool_infos()", "(info,) = make_infos(pool.size)"
    )
    _, result = settings_and_audit(_tree(tmp_path, FIXED, pools))
    assert result.findings == []
    reasons = [u.unknown.reason for u in result.unresolved]
    assert any("pool_info.buffer_info is not read off a device pool here" in r for r in reasons)


def test_a_record_unpacked_off_the_pool_in_the_same_function_is_followed(tmp_path):
    """0.5.22's form: `(pool_info,) = mamba_pool.get_device_pool_infos()` in the function that
    builds the host, then `pool_info.buffer_info`."""
    pools = POOLS.replace(
        """    def build_host(pool, pool_info, ratio: float = 2.0):
        return StateHost(""",
        """    def build_host(pool, ratio: float = 2.0):
        (pool_info,) = pool.get_device_pool_infos()
        return StateHost(""",
    ).replace("return build_host(pool, info)", "return build_host(pool)")
    assert "(pool_info,) = pool.get_device_pool_infos()" in pools
    _, result = settings_and_audit(_tree(tmp_path, BUGGY, pools))
    assert result.coverage.line() == "1 of 1 pairs compared"
    [finding] = result.findings
    assert "1048576 B/token/layer vs 2097152 B/token/layer" in finding.message


def test_numpy_prod_of_a_shape(tmp_path):
    assert evaluate(tmp_path, "np.prod((2, 3, 4))", "import numpy as np") == 24
    assert evaluate(tmp_path, "np.prod(())", "import numpy as np") == 1.0
    assert_unknown(evaluate(tmp_path, "np.prod((2, 3), axis=0)", "import numpy as np"), "axis")


def test_a_nested_class_is_a_class_of_its_owner(tmp_path):
    prelude = """
class Outer:
    class Base:
        width = 3

    class Inner(Base):
        pass
"""
    assert evaluate(tmp_path, "Outer.Inner().width", prelude) == 3


def test_an_object_of_listed_attributes_has_no_other(tmp_path):
    """`getattr(cache_params.shape, "conv_groups", None)`: the matrix lists every attribute of
    such an object, so one it does not list is absent (the default), not unknown."""
    from helpers import build, build_index

    from auditor.interpret.values import RuntimeObject

    index = build_index(
        tmp_path,
        {
            "pool.py": """
                class Pool:
                    def __init__(self, cache_params):
                        self.temporal = cache_params.shape.temporal
                        self.groups = getattr(cache_params.shape, "conv_groups", None)
                        self.kda = cache_params.is_kda
            """
        },
    )
    built = build(
        index,
        "Pool",
        values={"cache_params.shape.temporal": (32, 128, 128)},
        kwargs={"cache_params": RuntimeObject("cache_params", listed=True)},
    )
    assert built.instance.attrs["temporal"] == (32, 128, 128)
    assert built.instance.attrs["groups"] is None
    assert_unknown(built.instance.attrs["kda"], "cache_params has no attribute 'is_kda'")


def test_a_record_field_not_known_is_an_unresolved_buffer(tmp_path):
    """The envelope layout's state is `as_strided` views (not modelled): the record's field is
    an unresolved buffer of the pool, so no check treats the storage as accounted for."""
    from helpers import build, build_index

    from auditor.evaluation.measure import buffers_of

    index = build_index(
        tmp_path,
        {
            "pool.py": """
                from dataclasses import dataclass

                import torch

                class Pool:
                    @dataclass
                    class State:
                        temporal: torch.Tensor
                        label: str

                    def __init__(self, size):
                        raw = torch.zeros(size * 64, dtype=torch.uint8)
                        self.state = self.State(torch.as_strided(raw, (size, 64), (64, 1)), "x")
            """
        },
    )
    built = build(index, "Pool", kwargs={"size": 8})
    buffers = buffers_of(built.instance)
    assert_unknown(buffers["state.temporal"], "as_strided")
    assert "state.label" not in buffers


def test_an_annotated_object_the_matrix_lists_keeps_the_matrix_values(tmp_path):
    """SGLang's `MambaPool(size, cache_params: "BaseLinearStateParams", ...)`: a pool the pack
    names, taking an object of a class of the tree whose attributes the matrix lists. A named
    pool's object with no default is read as a stand-in (session 44), but not this one: the
    matrix gives its shapes (review: 0.5.10's Mamba pair was left never compared)."""
    annotated = POOLS.replace(
        "def __init__(self, *, size: int, cache_params, ",
        'def __init__(self, *, size: int, cache_params: "StateParams", ',
    ).replace(
        "    @dataclass(frozen=True)\n    class PoolInfo:",
        "    class StateParams:\n        pass\n\n\n    @dataclass(frozen=True)\n    class PoolInfo:",
    )
    assert annotated.count("StateParams") == 2
    _, result = settings_and_audit(_tree(tmp_path, BUGGY, annotated))
    assert result.coverage.line() == "1 of 1 pairs compared"
    [finding] = result.findings
    assert "1048576 B/token/layer vs 2097152 B/token/layer" in finding.message
