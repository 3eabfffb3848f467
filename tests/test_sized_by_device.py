"""A host nothing pairs that reads its size per token off its device's own tensors and
allocates nothing at a size of its own (SGLang 0.5.23's `UnifiedPageEnvelopeHostPool` copies
whole page envelopes of a shared arena) has no layout that could disagree: it is "sized by its
device", counted apart from the hosts never paired, listed with what it reads, and still not
counted as compared. Any allocation at a size of its own, or a base constructor that may
allocate, and it stays "never paired"."""

from __future__ import annotations

import json

import pytest
from helpers import write_tree

from auditor.cli import main

POOLS = """
    import torch


    class KVPool:
        def __init__(self, size: int, layer_num: int, head_dim: int = 128):
            self.layer_num = layer_num
            self.kv_buffer = [torch.empty((size, head_dim)) for _ in range(layer_num)]


    class ArenaViewPool(KVPool):
        def __init__(self, *, arena, name: str, page_size: int = 1):
            self._arena = arena
            self.page_size = page_size
            self.kv_buffer = arena.views(name)

        def page_envelopes(self):
            return self._arena.raw.view(-1, self._arena.page_bytes)


    class Backing:
        def __init__(self, pools, ratio):
            self.raw = [p.page_envelopes() for p in pools]
"""

HOST = """
    import torch
    from pkg.pools import Backing


    class EnvelopeMirror(BASE):
        def __init__(self, device_pool, ratio: int, page_size: int):
            envelopes = device_pool.page_envelopes()
            if page_size > 1:
                page_bytes = int(envelopes.shape[1])
            self.page_size = page_size
            self.bytes_per_token = FIGURE
            self.page_bytes = page_bytes
            self._backing = Backing((device_pool,), ratio)
            self.kv_buffer = self._backing.raw
            SUPER

        def blank_page(self, ratio=2):
            return torch.zeros(SIZE, dtype=torch.uint8)

        def page_offsets(self):  # indices, not storage
            return torch.arange(self.page_size, dtype=torch.int64)


    def pinned(n):
        return torch.zeros(n, dtype=torch.uint8)
"""


TYPED = """
    import torch
    from pkg.pools import KVPool


    class TypedHost:
        def __init__(self, device_pool: KVPool, host_tokens: int, head_dim: int = 128):
            self.kv_buffer = [
                torch.empty((host_tokens, head_dim)) for _ in range(device_pool.layer_num)
            ]
"""


def run(
    tmp_path,
    capsys,
    *options,
    size="self.page_bytes",
    base="object",
    init="",
    typed=False,
    figure="page_bytes // page_size",
):
    host = HOST.replace("SIZE", size).replace("BASE", base).replace("SUPER", init)
    host = host.replace("FIGURE", figure)
    files = {"pkg/__init__.py": "", "pkg/pools.py": POOLS, "pkg/host.py": host}
    if typed:  # a host compared beside it: the run has a pair
        files["pkg/typed.py"] = TYPED
    write_tree(tmp_path, files)
    code = main([str(tmp_path), "--no-cache", "--isolated", *options])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_host_sized_by_its_device_is_counted_apart_and_listed(tmp_path, capsys):
    code, out, err = run(tmp_path, capsys, "--show-unresolved", "--show-pairs")
    assert code == 0
    assert "1 host pools, 0 pairs · 1 host sized by its device ·" in err
    assert "never paired" not in err
    [item] = [line for line in out.splitlines() if "EnvelopeMirror: host pool not compared" in line]
    assert "host.py:" in item
    assert "sized by its device: its size per token (bytes_per_token, page_bytes)" in item
    assert "(int(envelopes.shape[1]); envelopes = device_pool.page_envelopes())" in item
    assert "  sized by its device: EnvelopeMirror (" in out


def test_json_counts_it_apart_and_fail_on_uncompared_fails(tmp_path, capsys):
    code, out, _ = run(tmp_path, capsys, "--output-format", "json", "--show-pairs")
    summary = json.loads(out)["summary"]
    assert (summary["hosts_sized_by_device"], summary["hosts_never_paired"]) == (1, 0)
    pairs = json.loads(out)["pairs"]
    assert [p["class"] for p in pairs if p["code"] == "SIZED-BY-DEVICE"] == ["EnvelopeMirror"]
    # a reading of its syntax, not a comparison: teams asking for every pair compared fail
    code, _, err = run(tmp_path, capsys, "--fail-on-uncompared", typed=True)
    assert code == 1, err
    assert "1 of 1 pairs compared, 1 host sized by its device ·" in err
    assert "1 host pool never paired or sized by its device (fail-on-uncompared)" in err


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"size": "self.page_size * 64"}, "an allocation at a size of its own"),
        ({"size": "page_count"}, "an allocation sized by a name not read off the device"),
        ({"base": "KVPool", "init": "super().__init__(8, 2)"}, "a base constructor"),
        ({"size": "pinned(self.page_bytes)"}, "a helper it cannot see into"),
        ({"size": "self.bytes_per_token * ratio"}, "a figure of its own"),
        (
            {"figure": "page_bytes * ratio // page_size"},
            "a figure scaled by its own parameter",
        ),
    ],
)
def test_anything_of_its_own_size_keeps_it_never_paired(tmp_path, capsys, change, why):
    code, _, err = run(tmp_path, capsys, "--fail-on-uncompared", typed=True, **change)
    assert "sized by its device" not in err, why
    assert code == 1
    assert "1 host pool never paired (fail-on-uncompared)" in err
