"""Idioms of the seventh probe's trees that were still not audited (tests/data/probe21 p06,
p10), written here under other names, buggy and fixed, audited with no configuration, the
figures checked against the trees' own tensors on torch's meta device: a string parameter
nothing gives that picks a row format from a table of any values (llama.cpp's
`GGML_TYPE_TRAITS[type_k]`), a mirror that sizes its rows off each of the device's per-layer
tensors (`[t.numel() // src.n_cells for t in src.keys]`), and a config dict's key that an
`assert` demands be one string (`assert opts["layout"] == "nhd"`)."""

from __future__ import annotations

import importlib
import re

import pytest
from helpers import audit_json, built_by_the_tree, one_pair_verdict, write_tree

audit = audit_json
built = built_by_the_tree
verdict = one_pair_verdict


FORMATS = """
    # elements per group, bytes per group
    ROW_FORMATS = {"half": (1, 2), "int8": (32, 36), "nib4": (32, 20), "full": (1, 4)}


    def packed_width(fmt: str, n: int) -> int:
        per, size = ROW_FORMATS[fmt]
        return n // per * size
"""

CELLS = """
    import torch

    from .formats import packed_width


    class CellCache:
        def __init__(self, shape, n_cells: int, k_fmt: str, v_fmt: str, device="cuda"):
            self.n_cells = n_cells
            self.width_k = shape["kv_heads"] * shape["head_k"]
            self.width_v = shape["kv_heads"] * shape["head_v"]
            self.keys, self.values = [], []
            for _ in range(shape["blocks"]):
                self.keys.append(torch.zeros(n_cells * packed_width(k_fmt, self.width_k),
                                             dtype=torch.uint8, device=device))
                self.values.append(torch.zeros(n_cells * packed_width(v_fmt, self.width_v),
                                               dtype=torch.uint8, device=device))
"""

STAGER = """
    import torch


    class Stager:
        def __init__(self, src, n_rows: int, device="cpu"):
            self.n_rows = n_rows
            k_rows = [t.numel() // src.n_cells for t in src.keys]
            v_rows = [V_ROW for t in src.values]
            self.keys = [torch.empty((n_rows, r), dtype=torch.uint8, device=device) for r in k_rows]
            self.values = [torch.empty((n_rows, r), dtype=torch.uint8, device=device) for r in v_rows]
"""

SERVER = """
    from .cells import CellCache
    from .stager import Stager

    SHAPE = {"blocks": 4, "kv_heads": 8, "head_k": 64, "head_v": 64}


    def start(n_cells=2048, k_fmt="int8", v_fmt="nib4", device="cuda"):
        cache = CellCache(SHAPE, n_cells, k_fmt, v_fmt, device=device)
        return cache, Stager(cache, 256, device="meta" if device == "meta" else "cpu")
"""


@pytest.mark.parametrize(
    "v_row, bug",
    [("t.numel() // src.n_cells", False), ("src.width_v * 2", True)],  # as if always "half"
)
def test_a_format_table_parameter_and_a_mirror_sized_off_each_device_tensor(
    tmp_path, capsys, monkeypatch, v_row, bug
):
    """`v_fmt: str` has no default and no configured value: its values are the table's keys
    (one per distinct row format); the stager, taking the cache untyped, reads each of its
    per-layer tensors for its row width."""
    write_tree(
        tmp_path,
        {
            "cells/__init__.py": "",
            "cells/formats.py": FORMATS,
            "cells/cells.py": CELLS,
            "cells/stager.py": STAGER.replace("V_ROW", v_row),
            "cells/server.py": SERVER,
        },
    )
    report = audit(tmp_path, capsys)
    assert verdict(report) == ({("LA001", "values")} if bug else set())
    # the oracle: the tree's own classes at its own values, and at every format and sampled
    # dimension, one of which gives the figures the finding prints
    cache, stager = built(tmp_path, monkeypatch, "cells", "server", "start", device="meta")
    device = cache.values[0].nbytes // cache.n_cells
    host = stager.values[0].nbytes // stager.n_rows
    assert (host != device) is bug
    if bug:
        finding = report["findings"][0]
        assert "v_fmt in {" in finding["message"]  # the formats the figures differ at
        assert "half" not in finding["message"].split("v_fmt in {", 1)[1].split("}")[0]
        printed = re.search(r"(\d+) B/token/layer vs (\d+) B/token/layer", finding["message"])
        monkeypatch.syspath_prepend(str(tmp_path))
        cells = importlib.import_module("cells.cells")
        stagers = importlib.import_module("cells.stager")
        figures = set()
        for fmt in ("int8", "nib4", "full"):
            for heads in (128, 64):
                for dim in (128, 64):
                    shape = {"blocks": 2, "kv_heads": heads, "head_k": dim, "head_v": dim}
                    gpu = cells.CellCache(shape, 4, fmt, fmt, device="meta")
                    rows = stagers.Stager(gpu, 4, device="meta")
                    figures.add((rows.values[0].nbytes // 4, gpu.values[0].nbytes // 4))
        assert (int(printed[1]), int(printed[2])) in figures


DEMANDED = """
    import torch


    class LatentCache:
        def __init__(self, model: dict, opts: dict, device="cuda"):
            assert opts["layout"] == "nhd", "only the NHD layout is built"
            self.n_layers = model["n_layers"]
            self.n_blocks, self.block_size = opts["n_blocks"], opts["block_size"]
            self.latent = torch.empty((self.n_layers, self.n_blocks, self.block_size, model["rank"]),
                                      dtype=torch.bfloat16, device=device)


    class LatentMirror:
        def __init__(self, device_pool: LatentCache, n_blocks: int, device="cpu"):
            self.n_blocks, self.block_size = n_blocks, device_pool.block_size
            shape = device_pool.latent.shape
            self.latent = torch.empty((shape[0], n_blocks, shape[2], shape[3]),
                                      dtype=DTYPE, device=device)


    def build(device="cuda"):
        model = {"n_layers": 3, "rank": 128}
        opts = {"layout": "nhd", "n_blocks": 64, "block_size": 16}
        gpu = LatentCache(model, opts, device=device)
        return gpu, LatentMirror(gpu, 256, device="meta" if device == "meta" else "cpu")
"""


@pytest.mark.parametrize("dtype, bug", [("torch.bfloat16", False), ("torch.float8_e4m3fn", True)])
def test_a_config_key_an_assert_demands_is_text(tmp_path, capsys, monkeypatch, dtype, bug):
    """`opts["layout"]` is read and nothing says what it holds: sampled as a number it fails
    the assert at every point (no pool); demanded by the assert, it is that string."""
    write_tree(tmp_path, {"lat/__init__.py": "", "lat/pools.py": DEMANDED.replace("DTYPE", dtype)})
    report = audit(tmp_path, capsys)
    assert verdict(report) == ({("LA001", "latent")} if bug else set())
    gpu, mirror = built(tmp_path, monkeypatch, "lat", "pools", "build", device="meta")
    device = gpu.latent.nbytes // (gpu.n_blocks * gpu.block_size * gpu.n_layers)
    host = mirror.latent.nbytes // (mirror.n_blocks * mirror.block_size * gpu.n_layers)
    assert (host != device) is bug
    if bug:
        assert f"{host} B/token/layer vs {device} B/token/layer" in report["findings"][0]["message"]


AUTO_DTYPE = """
    import torch

    CACHE_DTYPES = {"auto": None, "fp8": torch.float8_e4m3fn, "fp8_e5m2": torch.float8_e5m2}


    class WorkerKV:
        def __init__(self, model: dict, cache: dict, device="cuda"):
            self.n_blocks, self.block_size = cache["n_blocks"], cache["block_size"]
            self.dtype = CACHE_DTYPES[cache["cache_dtype"]] or getattr(torch, model["torch_dtype"])
            shape = (2, self.n_blocks, self.block_size, model["kv_heads"], model["head_dim"])
            self.kv = [torch.empty(shape, dtype=self.dtype, device=device)
                       for _ in range(model["n_layers"])]


    class CpuTier:
        def __init__(self, device_pool: WorkerKV, model: dict, n_blocks: int, device="cpu"):
            self.n_blocks, self.block_size = n_blocks, device_pool.block_size
            shape = (2, n_blocks, device_pool.block_size, model["kv_heads"], model["head_dim"])
            self.kv = [torch.empty(shape, dtype=TIER_DTYPE, device=device)
                       for _ in range(model["n_layers"])]


    MODEL = {"n_layers": 2, "kv_heads": 4, "head_dim": 64, "torch_dtype": "bfloat16"}


    def build(cache_dtype="fp8", device="cuda"):
        cache = {"n_blocks": 32, "block_size": 16, "cache_dtype": cache_dtype}
        gpu = WorkerKV(MODEL, cache, device=device)
        return gpu, CpuTier(gpu, MODEL, 128, device="meta" if device == "meta" else "cpu")
"""


@pytest.mark.parametrize(
    "dtype, bug",
    [("device_pool.dtype", False), ('getattr(torch, model["torch_dtype"])', True)],
)
def test_a_dtype_table_with_an_auto_entry(tmp_path, capsys, monkeypatch, dtype, bug):
    """`{"auto": None, "fp8": ...}[key] or <model dtype>`: the key takes the table's keys (the
    `None` entry falls through to the model's dtype), not a sampled number the lookup fails on;
    a tier that always takes the model's dtype disagrees at the fp8 keys."""
    write_tree(
        tmp_path, {"kvt/__init__.py": "", "kvt/pools.py": AUTO_DTYPE.replace("TIER_DTYPE", dtype)}
    )
    report = audit(tmp_path, capsys)
    assert verdict(report) == ({("LA001", "kv")} if bug else set())
    gpu, tier = built(tmp_path, monkeypatch, "kvt", "pools", "build", device="meta")
    layers = len(gpu.kv)
    device = sum(t.nbytes for t in gpu.kv) // (gpu.n_blocks * gpu.block_size * layers)
    host = sum(t.nbytes for t in tier.kv) // (tier.n_blocks * tier.block_size * layers)
    assert (host != device) is bug
    if bug:
        message = report["findings"][0]["message"]
        assert "cache_dtype in {" in message and "auto" not in message.split("cache_dtype in {")[1]


CARVED = """
    from dataclasses import dataclass

    import torch


    @dataclass(frozen=True)
    class LayerSpec:
        attn_ids: list
        state_ids: list
        heads: int
        dim: int
        page_size: int
        dtype: torch.dtype
        width: int
        hidden: int = 2048

        @property
        def n_attn_layers(self) -> int:
            return len(self.attn_ids)

        @property
        def row_bytes(self) -> int:
            return self.page_size * self.heads * self.dim * torch.empty((), dtype=self.dtype).element_size()


    class AttnStatePool:
        def __init__(self, spec: LayerSpec, n_pages: int, max_reqs: int, device: str):
            self.n_pages = n_pages
            shape = (spec.n_attn_layers, n_pages, spec.page_size, spec.heads, spec.dim)
            self.keys = torch.empty(shape, dtype=spec.dtype, device=device)
            self.values = torch.empty(shape, dtype=spec.dtype, device=device)
            self.state = torch.empty((len(spec.state_ids), max_reqs, spec.width), dtype=torch.float32,
                                     device=device)


    class PinnedTier:
        def __init__(self, spec: LayerSpec, n_pages: int, device: str = "cpu"):
            self.n_pages = n_pages
            per_layer = n_pages * PER_PAGE
            self._arena = torch.empty(2 * spec.n_attn_layers * per_layer, dtype=torch.uint8, device=device)
            shape = (spec.n_attn_layers, n_pages, spec.page_size, spec.heads, spec.dim)
            half = spec.n_attn_layers * per_layer
            self.keys = self._arena[:half].view(VIEW).view(shape)
            self.values = self._arena[half:].view(VIEW).view(shape)


    class Replica:
        def __init__(self, device="cuda"):
            self.spec = LayerSpec(attn_ids=[3, 7], state_ids=[0, 1, 2, 4, 5, 6], heads=4, dim=64,
                                  page_size=16, dtype=torch.bfloat16, width=256)
            self.device = device
            self.pool, self.tier = self._caches()

        def _caches(self):
            pool = AttnStatePool(self.spec, 64, 8, device=self.device)
            tier = PinnedTier(self.spec, 256, device="meta" if self.device == "meta" else "cpu")
            return pool, tier


    def build(device="cuda"):
        replica = Replica(device)
        return replica.pool, replica.tier
"""


@pytest.mark.parametrize(
    "per_page, view, bug",
    [
        ("spec.row_bytes", "spec.dtype", False),
        ("spec.page_size * spec.heads * spec.dim", "torch.uint8", True),  # a one-byte layout kept
    ],
)
def test_a_flat_region_carved_into_views_beside_its_device(
    tmp_path, capsys, monkeypatch, per_page, view, bug
):
    """A tier built beside its pool from the same spec object (the pool's `max_reqs` sizes
    state the tier does not hold), holding one flat byte region carved into `keys` and
    `values` views; the spec's properties (`n_attn_layers`, `row_bytes`) computed from its fields."""
    source = CARVED.replace("PER_PAGE", per_page).replace("VIEW", view)
    write_tree(tmp_path, {"rep/__init__.py": "", "rep/serve.py": source})
    report = audit(tmp_path, capsys)
    summary = report["summary"]
    # compared; the one item unresolved is the pool's own state, sized by `len()` of a list
    # field of the spec (not modelled), which the tier does not hold
    assert summary["pairs"] == summary["pairs_compared"] == 1 and summary["unresolved"] == 1
    found = {(f["code"], f["message"].split(":", 1)[0]) for f in report["findings"]}
    assert found == ({("LA001", "keys"), ("LA001", "values")} if bug else set())
    pool, tier = built(tmp_path, monkeypatch, "rep", "serve", "build", device="meta")
    layers, page = pool.keys.shape[0], pool.keys.shape[2]
    device = pool.keys.nbytes // (pool.n_pages * page * layers)
    host = tier.keys.nbytes // (tier.n_pages * page * layers)
    assert (host != device) is bug
    if bug:
        # printed at the audit's sampled heads and dims: the same ratio as the tree's own
        for finding in report["findings"]:
            printed = re.search(r"(\d+) B/token/layer vs (\d+) B/token/layer", finding["message"])
            assert int(printed[1]) * device == int(printed[2]) * host


ROWS_OF_SEQUENCES = """
    import torch


    class SeqCache:
        def __init__(self, cfg: dict, n_seqs: int, context_len: int, device="cuda"):
            self.n_seqs, self.context_len = n_seqs, context_len
            self.n_layers = cfg["layers"]
            self.width = cfg["kv_heads"] * cfg["head_dim"]
            self.keys = [torch.empty((n_seqs, context_len, self.width), dtype=torch.float16, device=device)
                         for _ in range(self.n_layers)]


    class SessionPark:
        def __init__(self, cache: SeqCache, n_sessions: int, device="cpu"):
            self.n_sessions = n_sessions
            self.context_len = cache.context_len
            width = WIDTH
            self.keys = [torch.empty((n_sessions, self.context_len, width), dtype=torch.float16,
                                     device=device) for _ in range(cache.n_layers)]


    def serve(context_len, device="cuda"):  # the caller's, nothing here says
        cache = SeqCache({"layers": 3, "kv_heads": 8, "head_dim": 64}, 4, context_len, device=device)
        return cache, SessionPark(cache, 16, device="meta" if device == "meta" else "cpu")
"""


@pytest.mark.parametrize("width, bug", [("cache.width", False), ("cache.width // 2", True)])
def test_rows_of_whole_sequences(tmp_path, capsys, monkeypatch, width, bug):
    """Tokens are rows of whole sequences (`(n_seqs, context_len, width)`, exllama's caches):
    bytes per token divide by the sequence length each row holds, on both sides (the park's
    `n_sessions` rows of the cache's `context_len`), so the free `context_len` cancels."""
    write_tree(
        tmp_path, {"seq/__init__.py": "", "seq/pools.py": ROWS_OF_SEQUENCES.replace("WIDTH", width)}
    )
    report = audit(tmp_path, capsys)
    assert verdict(report) == ({("LA001", "keys")} if bug else set())
    cache, park = built(
        tmp_path, monkeypatch, "seq", "pools", "serve", context_len=2048, device="meta"
    )
    layers = len(cache.keys)
    device = sum(t.nbytes for t in cache.keys) // (cache.n_seqs * cache.context_len * layers)
    host = sum(t.nbytes for t in park.keys) // (park.n_sessions * park.context_len * layers)
    assert (host != device) is bug
    if bug:
        printed = re.search(
            r"(\d+) B/token/layer vs (\d+) B/token/layer", report["findings"][0]["message"]
        )
        assert int(printed[1]) * device == int(printed[2]) * host
        # per token, not per row of a sequence: the device's figure at a sampled head count
        # and dimension is one token's row, as the tree's class builds it
        monkeypatch.syspath_prepend(str(tmp_path))
        pools = importlib.import_module("seq.pools")
        rows = {
            pools.SeqCache({"layers": 1, "kv_heads": h, "head_dim": d}, 1, 1, "meta").keys[0].nbytes
            for h in (128, 64)
            for d in (128, 64)
        }
        assert int(printed[2]) in rows


BASE_AND_KINDS = """
    import torch


    class StateCacheBase:
        bits: int = 16

        def __init__(self, shape: dict, n_seqs: int, context_len: int, device="cuda"):
            self.n_seqs, self.context_len = n_seqs, context_len
            self.n_layers, self.width = shape["layers"], shape["heads"] * shape["dim"]
            self.device = device
            self.keys = []

        def make_rows(self, dtype, width):
            for _ in range(self.n_layers):
                self.keys.append(torch.empty((self.n_seqs, self.context_len, width), dtype=dtype,
                                             device=self.device))


    class HalfCache(StateCacheBase):
        def __init__(self, shape: dict, n_seqs: int, context_len: int, device="cuda"):
            super().__init__(shape, n_seqs, context_len, device)
            self.make_rows(torch.half, self.width)


    class ByteCache(StateCacheBase):
        bits = 8

        def __init__(self, shape: dict, n_seqs: int, context_len: int, device="cuda"):
            super().__init__(shape, n_seqs, context_len, device)
            self.make_rows(torch.uint8, self.width)


    class Parked:
        def __init__(self, cache: StateCacheBase, n_sessions: int, device="cpu"):
            self.n_sessions, self.context_len = n_sessions, cache.context_len
            width = cache.width * cache.bits // 8
            dtype = torch.uint8 if cache.bits < 16 else torch.half
            self.keys = [torch.empty((n_sessions, self.context_len, WIDTH), dtype=dtype, device=device)
                         for _ in range(cache.n_layers)]


    KINDS = {"half": HalfCache, "byte": ByteCache}


    def serve(kind="byte", device="cuda"):
        cache = KINDS[kind]({"layers": 2, "heads": 4, "dim": 64}, 2, 1024, device=device)
        return cache, Parked(cache, 8, device="meta" if device == "meta" else "cpu")
"""


@pytest.mark.parametrize(
    "width, bug", [("width if cache.bits < 16 else width // 2", False), ("width", True)]
)
def test_a_base_whose_subclasses_call_its_allocator_is_no_pool(
    tmp_path, capsys, monkeypatch, width, bug
):
    """The base allocates nothing when built (its subclasses call its `make_rows`): not a
    device pool of its own, so the host typed with it is compared with each subclass only,
    all pairs compared; the host halving a half-precision row's width is reported there."""
    write_tree(
        tmp_path,
        {"kinds/__init__.py": "", "kinds/pools.py": BASE_AND_KINDS.replace("WIDTH", width)},
    )
    report = audit(tmp_path, capsys)
    summary = report["summary"]
    assert summary["pairs"] == summary["pairs_compared"] == 2 and summary["unresolved"] == 0
    found = {(f["code"], f["message"].split(":", 1)[0]) for f in report["findings"]}
    assert found == ({("LA001", "keys")} if bug else set())
    for kind in ("half", "byte"):
        cache, parked = built(
            tmp_path, monkeypatch, "kinds", "pools", "serve", kind=kind, device="meta"
        )
        device = cache.keys[0].nbytes // (cache.n_seqs * cache.context_len)
        host = parked.keys[0].nbytes // (parked.n_sessions * parked.context_len)
        assert (host != device) is (bug and kind == "half")
    if bug:
        assert "HalfCache" in report["findings"][0]["message"]


PROMPT_ROWS = (
    ROWS_OF_SEQUENCES.split("    class SessionPark")[0]
    + """

    class PromptShelf:
        def __init__(self, cache: SeqCache, num_entries: int, prompt_len: int, device="cpu"):
            self.num_entries, self.prompt_len = num_entries, prompt_len
            self.keys = [torch.empty((num_entries, prompt_len, WIDTH), dtype=torch.float16,
                                     device=device) for _ in range(cache.n_layers)]


    def serve(context_len, device="cuda"):
        cache = SeqCache({"layers": 3, "kv_heads": 8, "head_dim": 64}, 4, context_len, device=device)
        return cache, PromptShelf(cache, 8, 512, device="meta" if device == "meta" else "cpu")
"""
)


@pytest.mark.parametrize("width, bug", [("cache.width", False), ("cache.width // 2", True)])
def test_entries_of_whole_prompts(tmp_path, capsys, monkeypatch, width, bug):
    """A prompt cache's `num_entries` rows of its own `prompt_len` tokens (the site passes 512)
    beside a cache of `n_seqs` rows of `context_len`: both sides per token, not per row (else
    the shelf's figure is 512 times its row's, a finding on every buffer)."""
    write_tree(
        tmp_path, {"seq/__init__.py": "", "seq/pools.py": PROMPT_ROWS.replace("WIDTH", width)}
    )
    report = audit(tmp_path, capsys)
    assert verdict(report) == ({("LA001", "keys")} if bug else set())
    cache, shelf = built(
        tmp_path, monkeypatch, "seq", "pools", "serve", context_len=2048, device="meta"
    )
    layers = len(cache.keys)
    device = sum(t.nbytes for t in cache.keys) // (cache.n_seqs * cache.context_len * layers)
    host = sum(t.nbytes for t in shelf.keys) // (shelf.num_entries * shelf.prompt_len * layers)
    assert (host != device) is bug
    if bug:
        message = report["findings"][0]["message"]
        printed = re.search(r"(\d+) B/token/layer vs (\d+) B/token/layer", message)
        assert int(printed[1]) * device == int(printed[2]) * host
        assert "its device's" not in message  # the shelf's own prompt_len, not a device's block
