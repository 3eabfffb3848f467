"""A row format passed as an enum member with no default (`fmt_k: RowFormat`), which nothing in
the tree fixes for the pool (its call site is the engine's), and a host mirror whose buffers
are named otherwise than the device's (`k_rows` for `keys_per_layer`). The format is explored
at each member of its enum (matrix.enum_members), the buffers paired by what their names say
they hold (wording._same_role); audited with no configuration and checked against the tree's
own tensors on the meta device."""

from __future__ import annotations

import importlib
import sys

import pytest
from helpers import audit_json, one_pair_verdict, write_tree

from auditor.evaluation.buffer_roles import role

FORMATS = """
    from enum import Enum


    class RowFormat(Enum):
        FP32 = "fp32"
        FP16 = "fp16"
        INT8_BLOCK = "int8b"  # 32 values in 34 bytes (a scale per block)
        INT4_BLOCK = "int4b"  # 32 values in 18 bytes


    _PACKING = {
        RowFormat.FP32: (1, 4),
        RowFormat.FP16: (1, 2),
        RowFormat.INT8_BLOCK: (32, 34),
        RowFormat.INT4_BLOCK: (32, 18),
    }


    def packed_bytes(fmt: RowFormat, values: int) -> int:
        per_block, block_bytes = _PACKING[fmt]
        assert values % per_block == 0
        return values // per_block * block_bytes
"""

CACHE = """
    import torch

    from .formats import RowFormat, packed_bytes


    class SlotCache:
        def __init__(self, n_layers: int, n_slots: int, fmt_k: RowFormat, fmt_v: RowFormat,
                     kv_width: int = 1024, device="cuda"):
            self.n_layers = n_layers
            self.fmt_k = fmt_k
            self.fmt_v = fmt_v
            self.kv_width = kv_width
            self.keys_per_layer = [
                torch.empty((n_slots, packed_bytes(fmt_k, kv_width)), dtype=torch.uint8,
                            device=device)
                for _ in range(n_layers)
            ]
            self.values_per_layer = [
                torch.empty((n_slots, packed_bytes(fmt_v, kv_width)), dtype=torch.uint8,
                            device=device)
                for _ in range(n_layers)
            ]
"""

SNAPSHOT = """
    import torch

    from .cache import SlotCache
    from .formats import packed_bytes


    class SlotSnapshot:
        def __init__(self, cache: SlotCache, n_cells: int, device="cpu"):
            self.k_rows = [
                torch.empty((n_cells, packed_bytes(cache.fmt_k, cache.kv_width)),
                            dtype=torch.uint8, device=device)
                for _ in range(cache.n_layers)
            ]
            self.v_rows = [
                torch.empty((n_cells, packed_bytes(V_FORMAT, cache.kv_width)),
                            dtype=torch.uint8, device=device)
                for _ in range(cache.n_layers)
            ]
"""


@pytest.mark.parametrize("v_format, bug", [("cache.fmt_v", False), ("cache.fmt_k", True)])
def test_an_enum_parameter_is_explored_and_renamed_buffers_pair(
    tmp_path, capsys, monkeypatch, v_format, bug
):
    write_tree(
        tmp_path,
        {
            "slotkv/__init__.py": "",
            "slotkv/formats.py": FORMATS,
            "slotkv/cache.py": CACHE,
            "slotkv/snapshot.py": SNAPSHOT.replace("V_FORMAT", v_format),
        },
    )
    report = audit_json(tmp_path, capsys)
    assert (report["summary"]["device_pools"], report["summary"]["host_pools"]) == (1, 1)
    assert one_pair_verdict(report) == ({("LA001", "v_rows")} if bug else set())
    if bug:
        message = report["findings"][0]["message"]
        # compared with the device's values, only where the two formats differ
        assert "values_per_layer" in message and "fmt_k" in message and "fmt_v" in message

    # the oracle: the tree's own classes on the meta device, at formats that differ
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in [n for n in sys.modules if n == "slotkv" or n.startswith("slotkv.")]:
        monkeypatch.delitem(sys.modules, name)
    cache = importlib.import_module("slotkv.cache")
    formats = importlib.import_module("slotkv.formats")
    snapshot = importlib.import_module("slotkv.snapshot")
    gpu = cache.SlotCache(2, 8, formats.RowFormat.INT8_BLOCK, formats.RowFormat.FP16, device="meta")
    host = snapshot.SlotSnapshot(gpu, 8, device="meta")
    per_device = gpu.values_per_layer[0].nbytes // 8
    per_host = host.v_rows[0].nbytes // 8
    assert (per_device != per_host) is bug
    assert gpu.keys_per_layer[0].nbytes == host.k_rows[0].nbytes
    for name in [n for n in sys.modules if n == "slotkv" or n.startswith("slotkv.")]:
        monkeypatch.delitem(sys.modules, name)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("k_rows", ("k", frozenset())),
        ("host_k", ("k", frozenset())),
        ("keys_per_layer", ("k", frozenset())),
        ("v_l", ("v", frozenset())),
        ("k_scales_zeros", ("k", frozenset({"scale"}))),
        ("host_v_sz", ("v", frozenset({"scale"}))),
        ("kv_buffer", None),  # says neither K nor V alone
        ("k_and_v", None),  # says both
        ("slab", None),
    ],
)
def test_what_a_buffer_name_says_it_holds(name, expected):
    assert role(name) == expected


def test_buffers_that_do_not_pair_one_to_one_are_not_compared(tmp_path, capsys):
    """A host with one K storage and two V storages for the device's K and V: no pairing by
    names is one to one, so the pair is said never compared, not compared on a guess."""
    snapshot = (
        SNAPSHOT.replace("V_FORMAT", "cache.fmt_v")
        + """
            self.v_spare = [
                torch.empty((n_cells, packed_bytes(cache.fmt_v, cache.kv_width)),
                            dtype=torch.uint8, device=device)
                for _ in range(cache.n_layers)
            ]
"""
    )
    write_tree(
        tmp_path,
        {
            "slotkv/__init__.py": "",
            "slotkv/formats.py": FORMATS,
            "slotkv/cache.py": CACHE,
            "slotkv/snapshot.py": snapshot,
        },
    )
    report = audit_json(tmp_path, capsys)
    assert report["summary"]["pairs"] == 1 and report["summary"]["pairs_compared"] == 0
    assert report["findings"] == []
