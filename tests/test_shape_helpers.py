"""Shapes computed by plain functions (`nhd_page_shape(pages, size, heads, dim)`, `k, v =
kv_page_shapes(model, kv)`, imported from another module), and pools whose buffers hold the
same storages under other names (behaviour.shape_helper, evaluation/buffer_roles.py).

A pool written this way was no pool at all to the audit: the allocation's dimensions were a
call it did not read, so its token and layer counts were not seen (probe25 p09, p10). Each
test here fails without the piece it names."""

from __future__ import annotations

import ast
import textwrap

import pytest
from helpers import audit_json, write_tree

from auditor.evaluation.buffer_roles import matching, whole_role
from auditor.frontend.behaviour import module_helpers, outline_facts, shape_helper
from auditor.frontend.prefilter import may_define_pools


def _function(source: str) -> ast.FunctionDef:
    node = ast.parse(textwrap.dedent(source)).body[0]
    assert isinstance(node, ast.FunctionDef)
    return node


def test_a_shape_helper_with_locals_is_read_as_what_it_returns():
    helper = shape_helper(
        _function(
            '''
            def kv_page_shapes(model, kv):
                """Per-layer page shapes."""
                heads = model.n_kv // kv.tp
                k = (kv.pages, kv.page_size, heads, model.qk_dim)
                v = (kv.pages, kv.page_size, heads, model.v_dim)
                return k, v
            '''
        )
    )
    assert helper is not None
    [statement] = helper.body
    assert ast.unparse(statement) == (
        "return ((kv.pages, kv.page_size, model.n_kv // kv.tp, model.qk_dim), "
        "(kv.pages, kv.page_size, model.n_kv // kv.tp, model.v_dim))"
    )


@pytest.mark.parametrize(
    "source",
    [
        "def f(n):\n    x = n\n    x = x * 2\n    return (x, 4)\n",  # a name set twice
        "def f(n):\n    if n:\n        return (n, 1)\n    return (1, n)\n",  # a branch
        "def f(n):\n    return n * 2\n",  # no tuple
        "def f(n):\n    self.x = n\n    return (n,)\n",  # not a local
        "def f(n, rest):\n    return (n, *rest)\n",  # starred
    ],
)
def test_anything_else_is_no_shape_helper(source: str):
    assert shape_helper(_function(source)) is None


def test_the_outline_keeps_a_layer_axis_before_a_helpers_shape():
    """`(self.num_layers,) + k_shape`, `k_shape` from a function of another module: the
    per-file outline cannot read the helper, and must not drop the class."""
    tree = ast.parse(
        textwrap.dedent(
            """
            import torch
            from pkg.shapes import kv_page_shapes

            class SplitKV:
                def __init__(self, model, kv, device="cuda"):
                    self.num_layers = model.num_hidden_layers
                    k_shape, v_shape = kv_page_shapes(model, kv)
                    self.k = torch.zeros((self.num_layers,) + k_shape, device=device)
                    self.v = torch.zeros((self.num_layers,) + v_shape, device=device)
            """
        )
    )
    [cls] = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    kept, _ = outline_facts(cls, True, module_helpers(tree))
    assert kept
    single = ast.parse(ast.unparse(tree).replace("+ k_shape", "").replace("+ v_shape", ""))
    [cls] = [n for n in single.body if isinstance(n, ast.ClassDef)]
    assert not outline_facts(cls, True, module_helpers(single))[0]  # one axis: no pool


def test_a_file_allocating_through_a_local_function_passes_the_pre_filter():
    """`def alloc(shape, dtype): return torch.empty((self.num_blocks,) + shape, ...)` called
    per layer: no allocator is written in the per-layer list, so the bytes must say it."""
    source = textwrap.dedent(
        """
        class Swap:
            def __init__(self, opts, dims):
                def alloc(shape, dtype):
                    return torch.empty((self.num_blocks,) + shape, dtype=dtype)

                self.k = [alloc(layout.k_shape(opts, dims), dims.dtype) for _ in range(n)]
        """
    ).encode()
    assert may_define_pools(source, [])
    assert not may_define_pools(source.replace(b"return torch.empty", b"return make"), [])


def test_storages_named_otherwise_pair_one_to_one_or_not_at_all():
    assert whole_role("kv_data") == frozenset() == whole_role("page_bufs")
    assert whole_role("kv_scales") == frozenset({"scale"}) == whole_role("scale_bufs")
    assert whole_role("k_cache") is None  # says K: read by K and V roles instead
    assert matching(["page_bufs", "scale_bufs"], ["kv_data", "kv_scales"]) == {
        "page_bufs": "kv_data",
        "scale_bufs": "kv_scales",
    }
    assert matching(["draft_k", "draft_v"], ["k_pages", "v_pages"]) == {
        "draft_k": "k_pages",
        "draft_v": "v_pages",
    }
    assert matching(["pages", "more_pages"], ["kv_data", "kv_scales"]) is None  # two alike
    assert matching(["k_rows", "pages"], ["k_l", "kv_data"]) is None  # K beside a whole
    assert matching(["kv_data"], ["kv_data", "kv_scales"]) is None  # not every storage


SHAPES = """
    def page_shape(pages, page_size, heads, head_dim):
        return (pages, page_size, heads, head_dim)
"""
CACHE = """
    import torch
    from pkg.shapes import page_shape


    class PagedCache:
        def __init__(self, cfg: dict, args: dict, device="cuda"):
            self.page_size = args["page_size"]
            self.num_pages = args["max_tokens"] // self.page_size
            self.num_layers = cfg["num_layers"]
            heads = cfg["num_kv_heads"]
            dtype = getattr(torch, args["kv_dtype"])
            self.kv_data = [
                torch.empty(page_shape(self.num_pages, self.page_size, heads, cfg["head_size"]),
                            dtype=dtype, device=device)
                for _ in range(self.num_layers)
            ]
"""
SPILL = """
    import torch
    from pkg.shapes import page_shape


    class SpillPages:
        def __init__(self, cfg: dict, args: dict, device="cpu"):
            self.page_size = args["page_size"]
            self.num_pages = args["spill_pages"]
            self.num_layers = cfg["num_layers"]
            heads = cfg["num_kv_heads"]
            dtype = getattr(torch, DTYPE)
            self.page_bufs = [
                torch.empty(page_shape(self.num_pages, self.page_size, heads, cfg["head_size"]),
                            dtype=dtype, device=device)
                for _ in range(self.num_layers)
            ]
"""
BUILD = """
    from pkg.cache import PagedCache
    from pkg.spill import SpillPages


    def allocate(cfg: dict, args: dict):
        cache = PagedCache(cfg, args, device="cuda")
        spill = SpillPages(cfg, args, device="cpu")
        return cache, spill
"""


@pytest.mark.parametrize(("dtype", "bug"), [('args["kv_dtype"]', False), ('"bfloat16"', True)])
def test_a_spill_buffer_beside_its_cache_is_compared(tmp_path, capsys, dtype: str, bug: bool):
    write_tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/shapes.py": SHAPES,
            "pkg/cache.py": CACHE,
            "pkg/spill.py": SPILL.replace("DTYPE", dtype),
            "pkg/build.py": BUILD,
        },
    )
    report = audit_json(tmp_path, capsys)
    summary = report["summary"]
    assert summary["device_pools"] == 2 and summary["pairs_compared"] == summary["pairs"] == 1
    found = [f["message"].split(":", 1)[0] for f in report["findings"]]
    assert found == (["page_bufs"] if bug else [])


PRIMARY = """
    import torch


    class PrimaryPool:
        def __init__(self, cfg: dict, settings, device="cuda"):
            self.num_layers = cfg["num_layers"]
            self.tokens_per_block = settings.tokens_per_block
            self.num_blocks = settings.max_tokens // self.tokens_per_block
            heads = cfg["num_kv_heads"]
            self.kv_pool = torch.empty(
                (self.num_blocks, self.num_layers, 2, self.tokens_per_block, heads * 128),
                dtype=to_torch(settings.dtype), device=device)


    def to_torch(name: str):
        return {"int8": torch.int8, "float16": torch.float16}[name]
"""
SECONDARY = """
    import torch
    from pkg.primary import to_torch


    class SecondaryPool:
        def __init__(self, cfg: dict, settings, device="cpu"):
            self.num_layers = cfg["num_layers"]
            self.tokens_per_block = settings.tokens_per_block
            self.num_blocks = settings.host_blocks
            heads = cfg["num_kv_heads"]
            self.dtype = to_torch(settings.dtype)
            self.kv_pool = torch.empty(
                (self.num_blocks, self.num_layers, 2, self.tokens_per_block, heads * 128),
                dtype=self.dtype, device=device)
"""
FACTORY = """
    from pkg.primary import PrimaryPool
    from pkg.secondary import SecondaryPool


    def create(cfg: dict, settings):
        primary = PrimaryPool(cfg, settings)
        secondary = SecondaryPool(cfg, settings)
        return primary, secondary
"""


def test_a_pool_reading_a_config_dtype_is_no_mirror_of_a_pool_keeping_one(tmp_path, capsys):
    """`self.dtype = ...` in one pool is no buffer: a pool reading `settings.dtype` beside it
    does not take that pool (it took it for one before: no pair of siblings was made)."""
    write_tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/primary.py": PRIMARY,
            "pkg/secondary.py": SECONDARY,
            "pkg/factory.py": FACTORY,
        },
    )
    report = audit_json(tmp_path, capsys)
    summary = report["summary"]
    assert (summary["device_pools"], summary["host_pools"]) == (2, 0)
    assert summary["pairs_compared"] == summary["pairs"] == 1
    assert report["findings"] == []
