"""Idioms of the seventh probe (tests/data/probe21, trees by a writer who never read the
auditor), each written here under other names, buggy and fixed, audited with no
configuration, the figures checked against the trees' own tensors on torch's meta device:
pools built from a decorator registry (`builder("sender")(spec)`), the layer axis second
(`(n_pages, n_layers, page, ...)`) in a shape kept before it is allocated, per-layer buffers
kept in a dict under numbered names (`kv[f"layer{i}"]`), configparser sections read on their
own (`model.getint("depth")`), tensors appended through a local (`t = torch.empty(...);
self.k.append(t)`), and a host taking the same config object as its device besides the
device itself."""

from __future__ import annotations

import importlib

import pytest
from helpers import audit_json, built_by_the_tree, one_pair_verdict, write_tree

from auditor.cli import main

audit = audit_json
built = built_by_the_tree
verdict = one_pair_verdict


REGISTRY = """
    import torch

    BUILDERS = {}


    def provides(kind):
        def wrap(cls):
            BUILDERS[kind] = cls
            return cls
        return wrap


    def builder(kind):
        return BUILDERS[kind]


    @provides("sender")
    class SendSide:
        def __init__(self, spec, device="cpu"):
            self.n_slots = spec["send_slots"]
            self.rows = [torch.empty(self.n_slots, spec["width"], dtype=torch.bfloat16, device=device)
                         for _ in range(spec["depth"])]


    @provides("receiver")
    class ReceiveSide:
        def __init__(self, spec, device="cpu"):
            self.n_slots = spec["recv_slots"]
            self.rows = [torch.empty(self.n_slots, WIDTH, dtype=torch.bfloat16, device=device)
                         for _ in range(spec["depth"])]


    SPEC = {"send_slots": 64, "recv_slots": 96, "width": 128, "depth": 3}  # (a sampled width)


    def pair(spec=SPEC, device="cpu"):
        return builder("sender")(spec, device), builder("receiver")(spec, device)
"""


@pytest.mark.parametrize("width, bug", [('spec["width"]', False), ('spec["width"] - 64', True)])
def test_pools_built_from_a_decorator_registry_are_siblings(
    tmp_path, capsys, monkeypatch, width, bug
):
    write_tree(tmp_path, {"reg/__init__.py": "", "reg/pools.py": REGISTRY.replace("WIDTH", width)})
    report = audit(tmp_path, capsys)
    assert verdict(report) == ({("LA001", "rows")} if bug else set())
    send, receive = built(tmp_path, monkeypatch, "reg", "pools", "pair", device="meta")
    per_token = [p.rows[0].nbytes // p.n_slots for p in (receive, send)]
    assert (per_token[0] != per_token[1]) is bug
    if bug:
        message = report["findings"][0]["message"]
        assert f"{per_token[0]} B/token/layer vs {per_token[1]} B/token/layer" in message
        assert report["findings"][0]["pairing_evidence"]["kind"] == "sibling"


SECOND_AXIS = """
    import torch


    class PageStore:
        def __init__(self, n_pages, n_layers, page_size, heads=4, dim=32, device="cpu"):
            self.n_pages, self.n_layers, self.page_size = n_pages, n_layers, page_size
            self.heads, self.dim = heads, dim
            shape = (n_pages, n_layers, page_size, heads, dim)
            self.kv = torch.zeros(shape, dtype=torch.float16, device=device)


    class PageSpill:
        def __init__(self, store: PageStore, n_pages, device="cpu"):
            self.n_pages, self.page_size = n_pages, store.page_size
            self.kv = {}
            for i in range(store.n_layers):
                t = torch.zeros((n_pages, store.page_size, store.heads, DIM), dtype=torch.float16, device=device)
                self.kv[f"layer{i}"] = t


    def make(device="cpu"):
        store = PageStore(256, 4, 16, device=device)
        return store, PageSpill(store, 1024, device=device)
"""


@pytest.mark.parametrize("dim, bug", [("store.dim", False), ("store.dim // 2", True)])
def test_a_layer_axis_second_and_a_dict_of_numbered_layers(tmp_path, capsys, monkeypatch, dim, bug):
    """The device's layers are its second axis, in a shape kept in a local before the
    allocation; the host keeps one tensor per layer under `f"layer{i}"`: one buffer per
    layer, compared as the device's `kv`."""
    write_tree(tmp_path, {"ax/__init__.py": "", "ax/pools.py": SECOND_AXIS.replace("DIM", dim)})
    report = audit(tmp_path, capsys)
    assert verdict(report) == ({("LA001", "kv")} if bug else set())
    store, spill = built(tmp_path, monkeypatch, "ax", "pools", "make", device="meta")
    device = store.kv.nbytes // (store.n_pages * store.page_size * store.n_layers)
    host = sum(t.nbytes for t in spill.kv.values()) // (
        spill.n_pages * spill.page_size * len(spill.kv)
    )
    assert (host != device) is bug
    if bug:
        assert f"{host} B/token/layer vs {device} B/token/layer" in report["findings"][0]["message"]


SECTIONS = """
    import configparser

    import torch

    INI = '''
    [model]
    depth = 3
    kv_heads = 128
    head_dim = 128
    [cache]
    n_blocks = 128
    block_size = 16
    swap_blocks = 512
    '''


    def load():
        cp = configparser.ConfigParser()
        cp.read_string(INI)
        return cp


    class BlockCache:
        def __init__(self, cp, device="cpu"):
            model, cache = cp["model"], cp["cache"]
            self.n_layers = model.getint("depth")
            self.block_size = cache.getint("block_size")
            self.n_blocks = cache.getint("n_blocks")
            self.heads, self.head_dim = model.getint("kv_heads"), model.getint("head_dim")
            self.k = []
            for _ in range(self.n_layers):
                t = torch.empty((self.n_blocks, self.block_size, self.heads, self.head_dim),
                                dtype=torch.bfloat16, device=device)
                self.k.append(t)


    class SwapCache:
        def __init__(self, gpu, n_blocks, device="cpu"):
            self.block_size = gpu.block_size
            self.n_blocks = n_blocks
            self.k = []
            for _ in range(gpu.n_layers):
                t = torch.empty((n_blocks, gpu.block_size, gpu.heads, gpu.head_dim),
                                dtype=DTYPE, device=device)
                self.k.append(t)


    def engine(cp, device="cpu"):
        gpu = BlockCache(cp, device=device)
        return gpu, SwapCache(gpu, cp["cache"].getint("swap_blocks"), device=device)
"""


@pytest.mark.parametrize("dtype, bug", [("torch.bfloat16", False), ("torch.float32", True)])
def test_configparser_sections_read_on_their_own_and_appended_locals(
    tmp_path, capsys, monkeypatch, dtype, bug
):
    """`model.getint("depth")` of `model = cp["model"]` is the config's `model.depth`; tensors
    appended through a local (`t = torch.empty(...)`, `self.k.append(t)`) are buffers, so the
    swap cache (untyped `gpu`) is a host of the block cache. (The INI's head figures are the
    values the audit samples options at, which nothing types: its first point is the INI's.)"""
    source = SECTIONS.replace("DTYPE", dtype)
    write_tree(tmp_path, {"ini/__init__.py": "", "ini/pools.py": source})
    report = audit(tmp_path, capsys)
    assert verdict(report) == ({("LA001", "k")} if bug else set())
    monkeypatch.syspath_prepend(str(tmp_path))
    config = importlib.import_module("ini.pools").load()
    gpu, swap = built(tmp_path, monkeypatch, "ini", "pools", "engine", cp=config, device="meta")
    device = gpu.k[0].nbytes // (gpu.n_blocks * gpu.block_size)
    host = swap.k[0].nbytes // (swap.n_blocks * swap.block_size)
    assert (host != device) is bug
    if bug:
        assert f"{host} B/token/layer vs {device} B/token/layer" in report["findings"][0]["message"]


LENGTHS = """
    import torch


    class Layout:
        def __init__(self, ids, tokens, other_ids, heads=2, dim=16, device="cpu"):
            self.ids = list(ids)
            self.other = other_ids
            self.tokens = tokens
            n = len(self.ids)
            m = len(self.other)
            self.kv = torch.zeros((COUNT, tokens, heads, dim), dtype=torch.float16, device=device)
            self.state = torch.zeros((m, 8, heads, dim), dtype=torch.float32, device=device)
"""


@pytest.mark.parametrize("count, layers_are_ids", [("n", True), ("len(self.other)", False)])
def test_a_local_length_of_a_copied_list_counts_layers_an_inline_one_wins(
    tmp_path, capsys, count, layers_are_ids
):
    """`n = len(self.ids)` after `self.ids = list(ids)` leading the KV makes `ids` the layer
    count (a local as strong as a length written in the shape, being a parameter's copy) over
    a local length of no copy (`m = len(self.other)`), which wins in turn where the shape
    writes `len(self.other)`. The layer count is built as a list of ids and the other list
    sampled as a number: the `state` buffer, led by `m`, is unresolved exactly when `ids`
    was taken."""
    write_tree(tmp_path, {"ln/__init__.py": "", "ln/pools.py": LENGTHS.replace("COUNT", count)})
    main([str(tmp_path), "--no-cache", "--isolated", "--show-pools"])
    text = capsys.readouterr().out
    kv = next(line for line in text.splitlines() if "] device kv:" in line)
    state = next(line for line in text.splitlines() if "] device state:" in line)
    assert "heads * dim = 32 x float16 (2 B) = 64 B/token/layer" in kv
    assert ("unresolved: len() of a value" in state) is layers_are_ids


DEVICE_METHOD = """
    import torch


    class Arena:
        def __init__(self, n_layers, n_rows, width=96, device="cpu"):
            self.n_layers, self.n_rows, self.width = n_layers, n_rows, width
            self.slab = torch.empty(self.slab_shape(n_layers, n_rows), dtype=torch.bfloat16, device=device)

        def slab_shape(self, layers, rows):
            return [layers, rows, 2, self.width]


    class Offload:
        def __init__(self, arena: Arena, budget_bytes: int, device="cpu"):
            self.n_layers = arena.n_layers
            self.n_rows = budget_bytes // (arena.n_layers * 2 * arena.width * 2)
            shape = arena.slab_shape(arena.n_layers, self.n_rows)
            self.slab = torch.empty(shape, dtype=DTYPE, device=device)


    def build(device="cpu"):
        arena = Arena(4, 64, device=device)
        return arena, Offload(arena, 1 << 20, device=device)
"""


@pytest.mark.parametrize("dtype, bug", [("torch.bfloat16", False), ("torch.float32", True)])
def test_a_host_shaped_by_a_method_of_its_device(tmp_path, capsys, monkeypatch, dtype, bug):
    """`shape = arena.slab_shape(arena.n_layers, self.n_rows)`, kept in a local list: the
    device's method, called on the device, gives the host's dimensions (`self` read as the
    device); the host's rows are what a byte budget holds."""
    write_tree(
        tmp_path, {"dm/__init__.py": "", "dm/pools.py": DEVICE_METHOD.replace("DTYPE", dtype)}
    )
    report = audit(tmp_path, capsys)
    assert verdict(report) == ({("LA001", "slab")} if bug else set())
    arena, offload = built(tmp_path, monkeypatch, "dm", "pools", "build", device="meta")
    device = arena.slab.nbytes // (arena.n_rows * arena.n_layers)
    host = offload.slab.nbytes // (offload.n_rows * offload.n_layers)
    assert (host != device) is bug
    if bug:
        message = report["findings"][0]["message"]
        assert f"{host} B/token/layer vs {device} B/token/layer" in message
