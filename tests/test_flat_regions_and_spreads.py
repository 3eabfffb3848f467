"""Spellings of probe40's trees, each a class of code rather than its example: a flat byte
region viewed as a dtype and then as a shape naming layers, sized by a layout object's own
method (`layout.token_bytes()`, run on the stand-in as a property is, not sampled); pools built
beside each other from a tuple of dimensions passed as `*dims`; an allocator bound by
`functools.partial`; and a spill area keeping K and V stacked in one storage beside a store of
one tensor each (compared with their sum). Each verdict is checked against the real tensors
built on torch's meta device."""

from __future__ import annotations

import pytest
from helpers import audit_json, built_by_the_tree, finding_figures, one_pair_verdict, write_tree

LATENT = """
    from dataclasses import dataclass

    import torch

    _DTYPES = {"bf16": torch.bfloat16, "fp8": torch.float8_e4m3fn}


    @dataclass(frozen=True)
    class Layout:
        num_layers: int
        width: int = 576
        dtype_name: str = "bf16"

        @property
        def dtype(self):
            return _DTYPES[self.dtype_name]

        def host_width(self) -> int:
            return self.width + EXTRA

        def token_bytes(self) -> int:
            return self.host_width() * self.dtype.itemsize * self.num_layers


    class LatentPool:
        def __init__(self, layout: Layout, slots: int, device="cuda"):
            self.latent = torch.zeros(
                (layout.num_layers, slots, 1, layout.width), dtype=layout.dtype, device=device
            )


    class LatentArena:
        def __init__(self, layout: Layout, tokens: int, device="cpu"):
            self.raw = torch.empty(tokens * layout.token_bytes(), dtype=torch.uint8,
                                   device=device)
            self.latent = self.raw.view(layout.dtype).view(
                tokens, layout.num_layers, 1, layout.host_width()
            )


    def build(num_layers=4, dtype_name="bf16", device="cuda", arena_device="cpu"):
        layout = Layout(num_layers, dtype_name=dtype_name)
        pool = LatentPool(layout, 1024, device=device)
        arena = LatentArena(layout, 2048, device=arena_device)
        return pool, arena
"""


@pytest.mark.parametrize("extra, bug", [(0, False), (64, True)])
def test_a_region_sized_by_its_layout_objects_method(tmp_path, capsys, monkeypatch, extra, bug):
    write_tree(
        tmp_path, {"lt/__init__.py": "", "lt/caches.py": LATENT.replace("EXTRA", str(extra))}
    )
    report = audit_json(tmp_path, capsys)
    # (the view covers the whole region: one storage, named by the view saying what its bytes
    # hold, `latent`, as the device names its buffer, not by the region's `raw`)
    assert one_pair_verdict(report) == ({("LA001", "latent")} if bug else set())
    for dtype_name in ("bf16", "fp8"):
        pool, arena = built_by_the_tree(
            tmp_path,
            monkeypatch,
            "lt",
            "caches",
            "build",
            dtype_name=dtype_name,
            device="meta",
            arena_device="meta",
        )
        real = (arena.latent.nbytes // (2048 * 4), pool.latent.nbytes // (1024 * 4))
        assert (real[0] != real[1]) is bug
        if bug and dtype_name == "bf16":
            assert finding_figures(report)["latent"] == real


SPILL = """
    import functools

    import torch


    class KVStore:
        def __init__(self, num_tokens: int, num_layers: int, kv_heads: int, head_dim: int,
                     dtype=torch.bfloat16, device="cuda"):
            empty = functools.partial(torch.empty, device=device)
            self.k_cache = [empty((num_tokens, kv_heads, head_dim), dtype=dtype)
                            for _ in range(num_layers)]
            self.v_cache = [empty((num_tokens, kv_heads, head_dim), dtype=dtype)
                            for _ in range(num_layers)]


    class SpillArea:
        def __init__(self, num_tokens: int, num_layers: int, kv_heads: int, head_dim: int,
                     dtype=torch.bfloat16, device="cpu"):
            row = 2 * num_layers * kv_heads * head_dim * dtype.itemsize
            self.raw = torch.empty(num_tokens * row, dtype=torch.uint8, device=device)
            self.kv = self.raw.view(dtype).view(2, num_layers, num_tokens, kv_heads, head_dim)


    def build(tokens=1024, layers=4, heads=8, head_dim=128, kv_dtype=torch.float8_e4m3fn,
              model_dtype=torch.bfloat16, device="cuda", spill_device="cpu"):
        dims = (layers, heads, head_dim)
        store = KVStore(tokens, *dims, dtype=kv_dtype, device=device)
        spill = SpillArea(tokens * 2, *dims, dtype=SPILL_DTYPE, device=spill_device)
        return store, spill
"""


@pytest.mark.parametrize("spill_dtype, bug", [("kv_dtype", False), ("model_dtype", True)])
def test_a_stacked_spill_area_beside_a_store_built_from_spread_dims(
    tmp_path, capsys, monkeypatch, spill_dtype, bug
):
    write_tree(
        tmp_path, {"sp/__init__.py": "", "sp/kv.py": SPILL.replace("SPILL_DTYPE", spill_dtype)}
    )
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA001", "kv")} if bug else set())
    store, spill = built_by_the_tree(
        tmp_path, monkeypatch, "sp", "kv", "build", device="meta", spill_device="meta"
    )
    device = sum(t.nbytes for t in [*store.k_cache, *store.v_cache]) // (1024 * 4)
    host = spill.kv.nbytes // (2048 * 4)
    assert (host != device) is bug
    if bug:
        assert finding_figures(report)["kv"] == (host, device)
        # the partial's allocation says its dimensions by name, as `torch.empty` would
        assert "(k_cache: kv_heads * head_dim = " in report["findings"][0]["message"]


def test_a_partial_of_another_function_is_no_allocator():
    """`functools.partial(torch.mul, 2)` is no allocation, and a name bound twice is not
    rewritten (desugar.py)."""
    import ast

    from auditor.frontend.desugar import desugared

    source = (
        "def f(self, n, d):\n"
        "    scale = functools.partial(torch.mul, 2)\n"
        "    zeros = functools.partial(torch.zeros, device=d)\n"
        "    other = functools.partial(torch.zeros, device=d)\n"
        "    other = None\n"
        "    self.a = scale(n)\n"
        "    self.b = zeros((n, 4))\n"
        "    self.c = other((n, 4))\n"
    )
    text = ast.unparse(desugared(ast.parse(source).body[0]))
    assert "self.a = torch.mul(2, n)" in text
    assert "self.b = torch.zeros((n, 4), device=d)" in text
    assert "self.c = other((n, 4))" in text


@pytest.mark.parametrize(
    "whole, parts, kept",
    [
        ("kv", ["k_cache", "v_cache"], True),
        ("kv_data", ["v_pages", "k_pages"], True),
        ("kv_scales", ["k_cache", "v_cache"], False),  # scales, not the cache
        ("kv", ["k_cache", "v_scale"], False),  # K and V's scales
        ("kv", ["k_scale", "v_scale"], False),
        ("k_cache", ["k_cache", "v_cache"], False),
        ("kv", ["k_cache", "v_cache", "k_scale"], False),
    ],
)
def test_a_whole_cache_kept_as_k_and_v_by_the_names(whole, parts, kept):
    from auditor.evaluation.buffer_roles import kept_whole

    assert kept_whole(whole, parts) is kept


SPEC_METHODS = """
    from dataclasses import dataclass

    import torch


    class ModelSpec:
        def __init__(self, head_dim):
            self.head_dim = head_dim


    @dataclass(frozen=True)
    class Spec:
        num_layers: int
        heads: int = 8
        width: int = 128
        dtype: torch.dtype = torch.bfloat16
        model: ModelSpec = None
        sizes: dict = None

        def row(self) -> int:  # its fields alone: run on the stand-in
            return self.heads * self.width * self.dtype.itemsize

        def token_bytes(self) -> int:  # through another such method
            return self.row() * self.num_layers

        def model_row(self) -> int:  # into what a field holds: sampled
            return self.model.head_dim * 2

        def scaled(self, factor) -> int:  # given an argument: sampled
            return self.row() * factor

        @staticmethod
        def extra_pad() -> int:
            return 64

        def padded(self) -> int:  # through a method left sampled: sampled
            return self.row() + self.extra_pad()

        def table_row(self) -> int:  # a field holding a dict, through a local: sampled
            sizes = self.sizes
            return sizes.get("row", 0)


    class Pool:
        def __init__(self, spec: Spec, slots: int, device="cuda"):
            self.kv = torch.zeros((spec.num_layers, slots, spec.heads, spec.width),
                                  dtype=spec.dtype, device=device)
            self.extra = (spec.token_bytes(), spec.model_row(), spec.scaled(2), spec.padded(),
                          spec.table_row())
"""


def test_which_methods_of_a_config_object_are_run_on_its_stand_in(tmp_path):
    from pathlib import Path

    from auditor.pipeline import audit
    from auditor.settings import load_settings

    write_tree(tmp_path, {"sm/__init__.py": "", "sm/spec.py": SPEC_METHODS})
    settings = load_settings(None)
    settings.respect_gitignore = False
    result = audit([Path(tmp_path)], settings)
    [pool] = [c for c in result.catalog.roles.index.all_classes() if c.name == "Pool"]
    facts = result.catalog.roles.facts(pool)
    computed = {p for p in facts.object_properties if p.endswith("()")}
    assert computed == {"Spec.row()", "Spec.token_bytes()"}
    assert facts.property_fields["Spec.token_bytes()"] == {
        "Spec.heads",
        "Spec.width",
        "Spec.dtype",
        "Spec.num_layers",
    }


OVERRIDDEN = """
    from dataclasses import dataclass

    import torch


    @dataclass
    class Layout:
        num_layers: int
        width: int = 576

        def token_bytes(self) -> int:
            return self.width * 2 * self.num_layers


    @dataclass
    class PaddedLayout(Layout):
        pad: int = 64

        def token_bytes(self) -> int:
            return (self.width + self.pad) * 2 * self.num_layers


    class LatentPool:
        def __init__(self, layout: Layout, slots: int, device="cuda"):
            self.latent = torch.zeros((layout.num_layers, slots, 1, layout.width + layout.pad),
                                      dtype=torch.bfloat16, device=device)


    class LatentArena:
        def __init__(self, layout: Layout, tokens: int, device="cpu"):
            self.raw = torch.empty(tokens * layout.token_bytes(), dtype=torch.uint8,
                                   device=device)
            self.latent = self.raw.view(torch.bfloat16).view(tokens, layout.num_layers, 1, -1)


    def build(num_layers=4, device="cuda", arena_device="cpu"):
        layout = PaddedLayout(num_layers)
        pool = LatentPool(layout, 1024, device=device)
        arena = LatentArena(layout, 2048, device=arena_device)
        return pool, arena
"""


def test_a_method_a_subclass_overrides_is_not_run_as_the_base_class(tmp_path, capsys, monkeypatch):
    """The code passes a `PaddedLayout` where the parameter says `Layout`: `Layout.
    token_bytes()` is not what runs, so it is not run on the stand-in (a review: it gave a
    false LA001, 1152 vs 1408). Both sides hold the same bytes on the meta device."""
    write_tree(tmp_path, {"ov/__init__.py": "", "ov/caches.py": OVERRIDDEN})
    report = audit_json(tmp_path, capsys)
    assert report["findings"] == []
    pool, arena = built_by_the_tree(
        tmp_path, monkeypatch, "ov", "caches", "build", device="meta", arena_device="meta"
    )
    assert pool.latent.nbytes // (1024 * 4) == arena.latent.nbytes // (2048 * 4)


@pytest.mark.parametrize(
    "body, spread",
    [
        ("dims = (layers, heads, dim)\n    Pool(n, *dims)", True),
        # a comprehension target of the same name: another `dims` at each item
        ("dims = (layers, heads, dim)\n    [Pool(n, *dims) for dims in others]", False),
        ("dims = (layers, heads, dim)\n    with ctx() as dims:\n        Pool(n, *dims)", False),
        ("dims = (layers, heads, dim)\n    for dims in others:\n        Pool(n, *dims)", False),
        # an element bound again between the tuple and the call
        ("dims = (layers, heads, dim)\n    heads = 2\n    Pool(n, *dims)", False),
        # a function inside taking `dims`
        (
            "dims = (layers, heads, dim)\n    def f(dims):\n        return dims\n    Pool(n, *dims)",
            False,
        ),
        ("if x:\n        dims = (layers, heads, dim)\n    else:\n        dims = (1, 2, 3)", False),
    ],
)
def test_dims_are_spread_only_where_python_binds_that_tuple(body, spread):
    import ast

    from auditor.pairing.siblings import _local_tuples

    source = f"def build(n, layers, heads, dim, others, x):\n    {body}\n"
    function = ast.parse(source).body[0]
    assert ("dims" in _local_tuples(function)) is spread


@pytest.mark.parametrize("name", ["states", "buffer", "data", "pages"])
def test_a_name_not_saying_kv_is_no_stacked_cache(name):
    """A linear-attention `states` pool beside a KV pool is not its stacked mirror (a review:
    a false LA001, 65536 vs 4096)."""
    from auditor.evaluation.buffer_roles import kept_whole

    assert not kept_whole(name, ["k_cache", "v_cache"])


FIELDS_IN_A_BASE = LATENT.replace(
    """    @dataclass(frozen=True)
    class Layout:
        num_layers: int
        width: int = 576
        dtype_name: str = "bf16"
""",
    """    @dataclass
    class Dims:  # fields alone, no method
        num_layers: int
        width: int = 576


    @dataclass
    class Layout(Dims):
        dtype_name: str = "bf16"
""",
)


@pytest.mark.parametrize("extra, bug", [(0, False), (64, True)])
def test_a_layout_method_reading_the_fields_of_a_base_without_methods(
    tmp_path, capsys, monkeypatch, extra, bug
):
    """The fields `token_bytes()` reads are declared by a base class with no method of its
    own: they are the class's fields all the same, so the method is run on the stand-in (a
    review: the base's fields were not read, and the method was left a sampled number)."""
    assert FIELDS_IN_A_BASE != LATENT
    tree = FIELDS_IN_A_BASE.replace("EXTRA", str(extra))
    write_tree(tmp_path, {"fb/__init__.py": "", "fb/caches.py": tree})
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA001", "latent")} if bug else set())
    pool, arena = built_by_the_tree(
        tmp_path, monkeypatch, "fb", "caches", "build", device="meta", arena_device="meta"
    )
    real = (arena.latent.nbytes // (2048 * 4), pool.latent.nbytes // (1024 * 4))
    assert (real[0] != real[1]) is bug
    if bug:
        assert finding_figures(report)["latent"] == real


@pytest.mark.parametrize("spill_dtype, bug", [("kv_dtype", False), ("model_dtype", True)])
def test_a_flat_region_is_named_by_its_view(tmp_path, capsys, monkeypatch, spill_dtype, bug):
    """`self.kv_cache = self.raw.view(dtype).view(2, layers, ...)`: one storage with two
    names, kept under the view's, which says what the bytes hold (a review: it was kept under
    the shorter `raw`, which says nothing of K and V, so the pair was never compared)."""
    tree = SPILL.replace("SPILL_DTYPE", spill_dtype).replace("self.kv = ", "self.kv_cache = ")
    write_tree(tmp_path, {"sv/__init__.py": "", "sv/kv.py": tree})
    report = audit_json(tmp_path, capsys)
    assert report["summary"]["pairs_compared"] == 1
    assert one_pair_verdict(report) == ({("LA001", "kv_cache")} if bug else set())
    store, spill = built_by_the_tree(
        tmp_path, monkeypatch, "sv", "kv", "build", device="meta", spill_device="meta"
    )
    device = sum(t.nbytes for t in [*store.k_cache, *store.v_cache]) // (1024 * 4)
    host = spill.kv_cache.nbytes // (2048 * 4)
    assert (host != device) is bug
    if bug:
        assert finding_figures(report)["kv_cache"] == (host, device)
