"""Shapes a config object's method or another module's helper gives, and dicts of layers.

- a leading layer axis joined to the shape a config object's method returns (`(self.n_layers,)
  + spec.block_shape(n_pages)`), the dtype a NamedTuple's property looks up in a table with a
  field (`_TABLE[self.dtype]`: the field takes the table's keys);
- a draft keeping one tensor per layer id in a dict (`{i: torch.zeros(...) for i in
  self.layer_ids}`, `layer_ids: Sequence[int]`), built beside its target from the same spec;
- allocations shaped by a helper of another module given the layer count first, read off a
  config object (`torch.empty(cache_shape(cfg.depth, cfg.max_tokens, ...))`), mirrored by a host
  counting blocks;
- a pipeline stage given as a (first, last) pair the pool unpacks (`self.first_layer,
  self.last_layer = layer_range`), its span the first argument of a shape helper: built as
  `(0, layers)`;
- a host typed with its device class whose buffer is named for its tier, not the device's
  (`secondary_pool` mirroring `primary_pool`): a mirror by what the names say they hold.

Each tree is audited with no configuration; the buggy and fixed forms are checked against
their own tensors on torch's meta device.
"""

from __future__ import annotations

import pytest
from helpers import audit_json, built_by_the_tree, finding_figures, one_pair_verdict, write_tree

DRAFT_TREE = {
    "pagedreg/__init__.py": "",
    "pagedreg/draft.py": """
        from typing import Sequence

        import torch

        from pagedreg.store import PagedStore


        class SkipDraftStore:
            def __init__(self, target: PagedStore, layer_ids: Sequence[int], n_pages: int, device):
                spec = target.spec
                self.n_pages = n_pages
                self.page_len = spec.page_len
                self.layer_ids = list(layer_ids)
                self.by_layer = {
                    i: torch.zeros(spec.block_shape(n_pages), dtype=DRAFT_DTYPE, device=device)
                    for i in self.layer_ids
                }
    """,
    "pagedreg/setup.py": """
        import json

        from pagedreg.draft import SkipDraftStore
        from pagedreg.spec import CacheSpec
        from pagedreg.store import PagedStore

        CONFIG = json.loads('{"layers": 12, "kv_heads": 4, "head_dim": 64, "page_len": 16, "dtype": "half"}')


        def setup(device="cuda", n_pages=256, exit_layer=4):
            spec = CacheSpec(**CONFIG)
            store = PagedStore(spec, n_pages, device)
            draft = SkipDraftStore(store, range(exit_layer), n_pages // 2, device)
            return store, draft
    """,
    "pagedreg/spec.py": """
        from typing import NamedTuple, Tuple

        import torch

        _TABLE = {"half": torch.float16, "bfloat16": torch.bfloat16, "e4m3": torch.float8_e4m3fn}


        class CacheSpec(NamedTuple):
            layers: int
            kv_heads: int
            head_dim: int
            page_len: int
            dtype: str

            @property
            def torch_dtype(self):
                return _TABLE[self.dtype]

            def block_shape(self, n_pages: int) -> Tuple[int, ...]:
                return (n_pages, 2, self.kv_heads, self.page_len, self.head_dim)
    """,
    "pagedreg/store.py": """
        import torch

        from pagedreg.spec import CacheSpec


        class PagedStore:
            def __init__(self, spec: CacheSpec, n_pages: int, device):
                self.spec = spec
                self.n_pages = n_pages
                self.page_len = spec.page_len
                self.n_layers = spec.layers
                self.data = torch.zeros((self.n_layers,) + spec.block_shape(n_pages), dtype=spec.torch_dtype, device=device)
    """,
}


@pytest.mark.parametrize("draft_dtype, bug", [("spec.torch_dtype", False), ("torch.float32", True)])
def test_a_joined_method_shape_and_a_dict_of_layer_ids(
    tmp_path, capsys, monkeypatch, draft_dtype, bug
):
    tree = dict(DRAFT_TREE)
    tree["pagedreg/draft.py"] = tree["pagedreg/draft.py"].replace("DRAFT_DTYPE", draft_dtype)
    write_tree(tmp_path, tree)
    report = audit_json(tmp_path, capsys)
    store, draft = built_by_the_tree(
        tmp_path, monkeypatch, "pagedreg", "setup", "setup", device="meta"
    )
    tokens = store.n_pages * store.page_len
    device = store.data.nbytes // (tokens * store.n_layers)
    layers = list(draft.by_layer.values())
    other = sum(t.nbytes for t in layers) // (draft.n_pages * draft.page_len * len(layers))
    assert device == 1024 and other == (2048 if bug else 1024)
    if not bug:
        assert one_pair_verdict(report) == set()
        return
    assert {f["code"] for f in report["findings"]} == {"LA001"}
    assert finding_figures(report) == {"by_layer": (other, device)}


TIER_TREE = {
    "tierstore/__init__.py": "",
    "tierstore/boot.py": """
        from tierstore.gpu import GpuStore, StoreConfig
        from tierstore.host import HostStore


        def boot(device="cuda", host_blocks=1024):
            gpu = GpuStore(StoreConfig(), device=device)
            return gpu, HostStore(gpu, host_blocks, device=device)
    """,
    "tierstore/geometry.py": """
        import torch

        SCALE_DTYPE = torch.float32


        def cache_shape(depth: int, rows: int, heads: int, width: int):
            return (depth, rows, 2, heads, width)


        def scale_rows_shape(depth: int, rows: int, heads: int):
            return (depth, rows, 2, heads)
    """,
    "tierstore/gpu.py": """
        from dataclasses import dataclass

        import torch

        from tierstore.geometry import SCALE_DTYPE, cache_shape, scale_rows_shape


        @dataclass
        class StoreConfig:
            depth: int = 24
            heads: int = 4
            width: int = 128
            max_tokens: int = 65536
            block_size: int = 32


        class GpuStore:
            def __init__(self, cfg: StoreConfig, device="cuda"):
                self.cfg = cfg
                self.max_tokens = cfg.max_tokens
                self.block_size = cfg.block_size
                self.values = torch.empty(cache_shape(cfg.depth, cfg.max_tokens, cfg.heads, cfg.width), dtype=torch.float8_e4m3fn, device=device)
                self.scales = torch.ones(scale_rows_shape(cfg.depth, cfg.max_tokens, cfg.heads), dtype=SCALE_DTYPE, device=device)
    """,
    "tierstore/host.py": """
        import torch

        from tierstore.geometry import SCALE_DTYPE, cache_shape, scale_rows_shape
        from tierstore.gpu import GpuStore


        class HostStore:
            def __init__(self, gpu: GpuStore, n_blocks: int, device="cpu"):
                cfg = gpu.cfg
                self.n_blocks = n_blocks
                self.block_size = cfg.block_size
                self.max_tokens = n_blocks * cfg.block_size
                self.values = torch.empty(cache_shape(cfg.depth, self.max_tokens, cfg.heads, cfg.width), dtype=torch.uint8, device=device)
                self.scales = torch.empty(scale_rows_shape(cfg.depth, SCALE_ROWS, cfg.heads), dtype=SCALE_DTYPE, device=device)
    """,
}


@pytest.mark.parametrize("scale_rows, bug", [("self.max_tokens", False), ("self.n_blocks", True)])
def test_a_helper_shape_led_by_a_layer_count_read_off_a_config(
    tmp_path, capsys, monkeypatch, scale_rows, bug
):
    tree = dict(TIER_TREE)
    tree["tierstore/host.py"] = tree["tierstore/host.py"].replace("SCALE_ROWS", scale_rows)
    write_tree(tmp_path, tree)
    report = audit_json(tmp_path, capsys)
    gpu, host = built_by_the_tree(tmp_path, monkeypatch, "tierstore", "boot", "boot", device="meta")
    depth = gpu.cfg.depth
    device = gpu.scales.nbytes // (gpu.max_tokens * depth)
    other = host.scales.nbytes // (host.max_tokens * depth)
    assert device == 32 and other == (1 if bug else 32)
    assert gpu.values.nbytes // (gpu.max_tokens * depth) == host.values.nbytes // (
        host.max_tokens * depth
    )
    if not bug:
        assert one_pair_verdict(report) == set()
        return
    assert {f["code"] for f in report["findings"]} == {"LA001"}
    assert finding_figures(report) == {"scales": (other, device)}


TIER_NAMES_TREE = {
    "tiers/__init__.py": "",
    "tiers/make.py": """
        from tiers.primary import PrimaryPool
        from tiers.secondary import SecondaryPool


        def make(device="cuda"):
            pool = PrimaryPool(16, 4096, 8, 128, device=device)
            return pool, SecondaryPool(pool, 16384, device=device)
    """,
    "tiers/primary.py": """
        import torch


        class PrimaryPool:
            def __init__(self, num_layers: int, max_tokens: int, heads: int, dim: int, dtype=torch.bfloat16, device="cuda"):
                self.num_layers = num_layers
                self.max_tokens = max_tokens
                self.heads = heads
                self.dim = dim
                self.dtype = dtype
                self.primary_pool = torch.empty((max_tokens, num_layers, 2, heads * dim), dtype=dtype, device=device)
    """,
    "tiers/secondary.py": """
        import torch

        from tiers.primary import PrimaryPool


        class SecondaryPool:
            def __init__(self, pool: PrimaryPool, max_tokens: int, device="cpu"):
                self.max_tokens = max_tokens
                self.num_layers = pool.num_layers
                self.secondary_pool = torch.empty(
                    (max_tokens, pool.num_layers, 2, pool.heads * pool.dim), dtype=HOST_DTYPE, device=device
                )
    """,
}


@pytest.mark.parametrize("host_dtype, bug", [("pool.dtype", False), ("torch.float32", True)])
def test_a_host_naming_its_buffer_for_its_tier(tmp_path, capsys, monkeypatch, host_dtype, bug):
    tree = dict(TIER_NAMES_TREE)
    tree["tiers/secondary.py"] = tree["tiers/secondary.py"].replace("HOST_DTYPE", host_dtype)
    write_tree(tmp_path, tree)
    report = audit_json(tmp_path, capsys)
    pool, host = built_by_the_tree(tmp_path, monkeypatch, "tiers", "make", "make", device="meta")
    device = pool.primary_pool.nbytes // (pool.max_tokens * pool.num_layers)
    other = host.secondary_pool.nbytes // (host.max_tokens * host.num_layers)
    assert device == 4096 and other == (8192 if bug else 4096)
    if not bug:
        assert one_pair_verdict(report) == set()
        return
    assert {f["code"] for f in report["findings"]} == {"LA001"}
    assert finding_figures(report) == {"secondary_pool": (other, device)}


STAGE_PAIR_TREE = {
    "stagekv2/__init__.py": "",
    "stagekv2/build.py": """
        from stagekv2.host import StageHost
        from stagekv2.pool import StagePool
        from stagekv2.shapes import stage_span


        def build(device="cuda", rank=0, size=2, n_layers=12):
            pool = StagePool(256, 16, stage_span(n_layers, rank, size), 256, 32, device=device)
            return pool, StageHost(pool, 1024, device=device)
    """,
    "stagekv2/host.py": """
        import torch

        from stagekv2.pool import StagePool
        from stagekv2.shapes import latent_shape


        class StageHost:
            def __init__(self, pool: StagePool, host_pages: int, device="cpu"):
                self.n_pages = host_pages
                self.page_size = pool.page_size
                self.n_layers = pool.last_layer - pool.first_layer
                shape = latent_shape(self.n_layers, host_pages, pool.page_size, WIDTH)
                self.kv = torch.empty(shape, dtype=pool.dtype, device=device)
    """,
    "stagekv2/pool.py": """
        import torch

        from stagekv2.shapes import latent_shape


        class StagePool:
            def __init__(self, n_pages, page_size, layer_range, latent, rope, dtype=torch.bfloat16, device="cuda"):
                self.n_pages = n_pages
                self.page_size = page_size
                self.first_layer, self.last_layer = layer_range
                self.latent = latent
                self.rope = rope
                self.dtype = dtype
                shape = latent_shape(self.last_layer - self.first_layer, n_pages, page_size, latent + rope)
                self.kv = torch.empty(shape, dtype=dtype, device=device)
    """,
    "stagekv2/shapes.py": """
        def stage_span(n_layers, rank, size):
            per = (n_layers + size - 1) // size
            start = rank * per
            return start, min(n_layers, start + per)


        def latent_shape(n_local, n_pages, page_size, width):
            return (n_local, n_pages, page_size, width)
    """,
}


@pytest.mark.parametrize("width, bug", [("pool.latent + pool.rope", False), ("pool.latent", True)])
def test_a_stage_given_as_a_layer_range_pair(tmp_path, capsys, monkeypatch, width, bug):
    tree = dict(STAGE_PAIR_TREE)
    tree["stagekv2/host.py"] = tree["stagekv2/host.py"].replace("WIDTH", width)
    write_tree(tmp_path, tree)
    report = audit_json(tmp_path, capsys)
    pool, host = built_by_the_tree(
        tmp_path, monkeypatch, "stagekv2", "build", "build", device="meta"
    )
    layers = pool.last_layer - pool.first_layer
    device = pool.kv.nbytes // (pool.n_pages * pool.page_size * layers)
    other = host.kv.nbytes // (host.n_pages * host.page_size * host.n_layers)
    assert device == 576 and other == (512 if bug else 576)
    if not bug:
        assert one_pair_verdict(report) == set()
        return
    assert {f["code"] for f in report["findings"]} == {"LA001"}
    assert finding_figures(report) == {"kv": (other, device)}
