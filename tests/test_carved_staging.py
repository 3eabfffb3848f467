"""A transfer buffer carved per layer out of one flat byte region (`arena.narrow(...)`, then
`.view(dtype).view(tokens, heads, head_size)` appended per layer), built beside a paged cache
from the same geometry object, whose properties (`local_kv_heads`, `itemsize`) compute from
its fields: the carved views are the buffer's storages (measure._carve), the fields the
properties read are sampled as fields read directly (matrix.dimensions), and the two
are compared as siblings. Audited with no configuration and checked against the tree's own
tensors on torch's meta device."""

from __future__ import annotations

import ast
import importlib
import sys
import textwrap

import pytest
from helpers import assert_unknown, audit_json, evaluate, one_pair_verdict, settings, write_tree

from auditor.dtypes import torch_module
from auditor.evaluation.buffer_roles import matching, role
from auditor.evaluation.matrix import by_field_default
from auditor.frontend.behaviour import (
    PER_LAYER_BYTES,
    Facts,
    constructor,
    methods_of,
    names_a_budget,
    params_of,
    read_facts,
)
from auditor.interpret.values import Tensor, UnknownAllocation

torch = torch_module()  # the oracle of the interpreter's views

SHAPE = """
    import torch


    class AttnShape:
        def __init__(self, n_layers: int, kv_heads: int, head_size: int, dtype: torch.dtype,
                     tp: int = 1):
            self.n_layers = n_layers
            self.kv_heads = kv_heads
            self.head_size = head_size
            self.dtype = dtype
            self.tp = tp

        @property
        def local_kv_heads(self) -> int:
            return max(1, self.kv_heads // self.tp)

        @property
        def itemsize(self) -> int:
            return torch.empty((), dtype=self.dtype, device="meta").element_size()
"""

PAGES = """
    import torch

    from wire.shape import AttnShape


    class LayerPages:
        def __init__(self, shape: AttnShape, n_blocks: int, block_len: int = 16, device="cuda"):
            self.block_len = block_len
            self.keys = [
                torch.empty((n_blocks, block_len, shape.local_kv_heads, shape.head_size),
                            dtype=shape.dtype, device=device)
                for _ in range(shape.n_layers)
            ]
            self.values = [
                torch.empty((n_blocks, block_len, shape.local_kv_heads, shape.head_size),
                            dtype=shape.dtype, device=device)
                for _ in range(shape.n_layers)
            ]
"""

WIRE = """
    import torch

    from wire.shape import AttnShape


    class WireBuffer:
        def __init__(self, shape: AttnShape, batch_tokens: int, device="cpu"):
            heads = HEADS
            row = batch_tokens * heads * shape.head_size * shape.itemsize
            self.arena = torch.empty(2 * row * shape.n_layers, dtype=torch.uint8, device=device)
            self.keys = []
            self.values = []
            for layer in range(shape.n_layers):
                k_part = self.arena.narrow(0, 2 * layer * row, row)
                v_part = self.arena.narrow(0, (2 * layer + 1) * row, row)
                self.keys.append(
                    k_part.view(shape.dtype).view(batch_tokens, heads, shape.head_size)
                )
                self.values.append(
                    v_part.view(shape.dtype).view(batch_tokens, heads, shape.head_size)
                )
"""

ENGINE = """
    import torch

    from wire.pages import LayerPages
    from wire.shape import AttnShape
    from wire.xfer import WireBuffer


    def start(n_blocks: int = 64, batch_tokens: int = 32, device="cuda", tp: int = 2):
        shape = AttnShape(4, 8, 128, torch.bfloat16, tp=tp)
        pages = LayerPages(shape, n_blocks, device=device)
        wire = WireBuffer(shape, batch_tokens, device="cpu" if device != "meta" else device)
        return pages, wire
"""


@pytest.mark.parametrize("heads, bug", [("shape.local_kv_heads", False), ("shape.kv_heads", True)])
def test_a_region_carved_per_layer_is_compared_with_its_sibling(
    tmp_path, capsys, monkeypatch, heads, bug
):
    write_tree(
        tmp_path,
        {
            "wire/__init__.py": "",
            "wire/shape.py": SHAPE,
            "wire/pages.py": PAGES,
            "wire/xfer.py": WIRE.replace("HEADS", heads),
            "wire/engine.py": ENGINE,
        },
    )
    report = audit_json(tmp_path, capsys)
    summary = report["summary"]
    assert (summary["device_pools"], summary["pairs"], summary["pairs_compared"]) == (2, 1, 1)
    assert summary["unresolved"] == 0
    assert one_pair_verdict(report) == ({("LA001", "keys"), ("LA001", "values")} if bug else set())
    if bug:  # both figures, the carved view's shape beside the cache's formula
        message = report["findings"][0]["message"]
        assert "WireBuffer." in message and "LayerPages." in message and "view" not in message

    # the oracle: the tree's own classes on the meta device, sharded (tp 2) and not (tp 1)
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in [n for n in sys.modules if n == "wire" or n.startswith("wire.")]:
        monkeypatch.delitem(sys.modules, name)
    engine = importlib.import_module("wire.engine")
    for tp, differ in ((2, bug), (1, False)):
        pages, wire = engine.start(device="meta", tp=tp)
        per_token = [t.nbytes // (64 * 16) for t in pages.keys + pages.values]
        carved = [t.nbytes // 32 for t in wire.keys + wire.values]
        assert (per_token != carved) is differ
    for name in [n for n in sys.modules if n == "wire" or n.startswith("wire.")]:
        monkeypatch.delitem(sys.modules, name)


def test_a_region_some_field_overruns_is_not_compared_on_a_guess(tmp_path, capsys):
    """A view asking for more bytes than its part of the region holds is no figure: the pair
    is said never compared (or unresolved), never clean and never a finding."""
    wire = WIRE.replace("HEADS", "shape.local_kv_heads").replace(
        "k_part.view(shape.dtype).view(batch_tokens, heads, shape.head_size)",
        "k_part.view(shape.dtype).view(batch_tokens, heads, 2 * shape.head_size)",
    )
    write_tree(
        tmp_path,
        {
            "wire/__init__.py": "",
            "wire/shape.py": SHAPE,
            "wire/pages.py": PAGES,
            "wire/xfer.py": wire,
            "wire/engine.py": ENGINE,
        },
    )
    report = audit_json(tmp_path, capsys)
    assert report["findings"] == []
    assert report["summary"]["unresolved"] >= 1


@pytest.mark.parametrize(
    "call",
    [
        "narrow(0, 2, 3)",
        "narrow(1, 0, 4)",
        "narrow(-1, 4, 1)",
        "narrow(0, 0, 0)",
        "narrow(dim=1, start=1, length=2)",
        "narrow(0, start=5, length=1)",
    ],
)
def test_narrow_is_the_view_torch_gives(tmp_path, call):
    """`region.narrow(dim, start, length)`: the part of a region a field is carved from."""
    value = evaluate(tmp_path, f"torch.zeros((6, 5), dtype=torch.bfloat16).{call}", "import torch")
    oracle = eval(f"torch.empty((6, 5), dtype=torch.bfloat16, device='meta').{call}")
    assert isinstance(value, Tensor) and value.view_of is not None
    assert (value.shape, value.nbytes) == (tuple(oracle.shape), oracle.nbytes)


@pytest.mark.parametrize(
    "call, reason",
    [
        ("narrow(0, 4, 3)", "outside a dimension of 6"),  # torch raises: past the end
        ("narrow(2, 0, 1)", "of dimension 2 of a 2-dimensional tensor"),
        ("narrow(0, 1.5, 2)", "not integers"),
        ("narrow(0, 1)", "without a dimension, a start and a length"),
        ("narrow(0, 1, 2, 3)", "with these arguments"),
        ("narrow(0, 1, size=2)", "with these arguments"),
    ],
)
def test_a_narrow_torch_refuses_or_that_is_not_modelled_is_unknown(tmp_path, call, reason):
    value = evaluate(tmp_path, f"torch.zeros((6, 5), dtype=torch.bfloat16).{call}", "import torch")
    assert_unknown(value, reason)


def test_a_view_that_cannot_be_shaped_is_still_storage(tmp_path):
    """A view changing the element count (torch raises) is unknown, and an UnknownAllocation:
    the attribute holding it is reported whatever its name (measure.buffers_of)."""
    value = evaluate(
        tmp_path, "torch.zeros((6, 5), dtype=torch.uint8).view(torch.bfloat16)", "import torch"
    )
    assert isinstance(value, UnknownAllocation) and "divide" in value.reason
    value = evaluate(tmp_path, "torch.zeros((6, 5), dtype=torch.uint8).view(7, 4)", "import torch")
    assert isinstance(value, UnknownAllocation) and "element count" in value.reason


@pytest.mark.parametrize(
    "text, kept",
    [
        ("self.keys.append(part.view(dt).view(n, h, d))", True),
        ("self.keys.append(self.arena[a:b].view(n, h, d))", True),
        ("self.keys.append(part.reshape(n, h, d))", False),
        ("self.keys.append(part)", False),
        ("self.k = (self.buf.narrow(0, o, n).view(dt).view(shape))", True),
        ("self.k = self.region[a:b].view(dt).view(shape)", True),
        ("self.k = torch_view(self.region)", False),
    ],
)
def test_the_pre_filter_keeps_a_file_appending_views(text, kept):
    source = f"class C:\n    def __init__(self):\n        {text}\n".encode()
    assert bool(PER_LAYER_BYTES.search(source)) is kept


@pytest.mark.parametrize(
    "name, said",
    [
        ("kcache", ("k", frozenset())),  # K run into a word of place
        ("vbuf", ("v", frozenset())),
        ("wire_v", ("v", frozenset())),
        ("k_views", ("k", frozenset())),
        ("host_k_spill", ("k", frozenset())),
        ("kv", None),  # not K run into a word: the whole cache
        ("kvcache", None),
        ("keystone", None),  # a word of its own, not `k` + `eystone`
    ],
)
def test_buffer_names_of_carved_mirrors_say_k_or_v(name, said):
    assert role(name) == said


def test_storages_pair_by_k_v_or_what_else_they_say():
    """`scale_store` beside `k_store`, `v_store` says the scales of both: one to one with a
    mirror's `scale_spill` beside `k_spill`, `v_spill`; never a guess between two."""
    assert matching(
        ["k_store", "v_store", "scale_store"], ["k_spill", "v_spill", "scale_spill"]
    ) == {
        "k_store": "k_spill",
        "v_store": "v_spill",
        "scale_store": "scale_spill",
    }
    assert (
        matching(["k_store", "v_store", "scale_store"], ["k_spill", "v_spill", "kv_spill"]) is None
    )
    assert matching(["k_store", "k_scales"], ["k_spill", "spill_scales"]) is None


def test_plural_words_of_place_say_nothing_of_what_is_held():
    """`k_bufs` is a K buffer as `k_buf` is, and Hugging Face's `key_states` are the keys:
    paired with `k_cache` and `k_data` (probe38's r07 and r05)."""
    assert matching(["k_cache", "v_cache"], ["k_bufs", "v_bufs"]) == {
        "k_cache": "k_bufs",
        "v_cache": "v_bufs",
    }
    assert matching(
        ["key_states", "value_states", "key_scales", "value_scales"],
        ["k_data", "v_data", "k_scale", "v_scale"],
    ) == {
        "key_states": "k_data",
        "value_states": "v_data",
        "key_scales": "k_scale",
        "value_scales": "v_scale",
    }
    assert matching(["page_bufs"], ["kv_data"]) == {"page_bufs": "kv_data"}  # a whole cache


def _facts(source: str):
    tree = ast.parse(textwrap.dedent(source))
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef))
    init = constructor(node)
    return read_facts(methods_of(node), params_of(init))


def test_a_loop_over_a_list_of_one_item_per_layer_is_per_layer():
    """`offsets = [(i * pitch, ...) for i in range(cfg.num_layers)]`, then one view per item:
    the loop counts layers as the range it was made from does."""
    facts = _facts(
        """
        import torch
        class Mirror:
            def __init__(self, cfg, n_blocks):
                pitch = n_blocks * cfg.row_bytes
                offsets = [i * pitch for i in range(cfg.num_layers)]
                self.backing = torch.empty(pitch * cfg.num_layers, dtype=torch.uint8)
                self.rows = [
                    self.backing[o : o + pitch].view(cfg.dtype).reshape(n_blocks, -1)
                    for o in offsets
                ]
        """
    )
    assert facts.range_paths == {"cfg.num_layers"}
    assert facts.allocated == {"backing", "rows"} and facts.regions == {"backing"}


def test_a_shape_kept_in_a_name_is_no_region():
    """`torch.empty(shape, ...)` with `shape` a tuple named before is one argument, as a flat
    allocation is; with no view carved from it, it holds storage of its own (siblings.py)."""
    facts = _facts(
        """
        import torch
        class Cache:
            def __init__(self, cfg, n_blocks):
                shape = (cfg.num_layers, n_blocks, cfg.heads, cfg.dim)
                self.k_store = torch.empty(shape, dtype=cfg.dtype)
                self.k_first = self.k_store[0]
        """
    )
    assert facts.regions == set() and "k_store" in facts.allocated


@pytest.mark.parametrize(
    "text, dimension",
    [("None", None), ("16", (16, 64)), ("'fp8'", ("fp8",)), ("True", (True,)), ("x()", None)],
)
def test_a_field_takes_its_class_default(text, dimension):
    """A field's default as its class gives it; `None` (which a `__post_init__` may replace)
    and a call nothing evaluates here give no dimension (matrix.dimensions gives a `None`
    field that a property reads its `None`: the property decides what it stands for)."""
    facts = Facts(params={}, object_defaults={"Geom.v_dim": text})
    found = by_field_default("Geom.v_dim", facts, settings())
    assert (found.values if found is not None else None) == dimension


KV = """
    import torch


    class EngineKV:
        def __init__(self, layer_count, heads, dim_per_head, max_tokens,
                     elem_dtype=torch.bfloat16, device="cuda"):
            self.kcache = []
            self.vcache = []
            for _ in range(layer_count):
                self.kcache.append(
                    torch.empty((max_tokens, heads, dim_per_head), dtype=elem_dtype, device=device)
                )
                self.vcache.append(
                    torch.empty((max_tokens, heads, dim_per_head), dtype=elem_dtype, device=device)
                )
"""

WIRE_BUFFER = """
    import torch


    class WireBuffer:
        def __init__(self, layer_count, heads, dim_per_head, slots,
                     elem_dtype=torch.bfloat16, device="cpu"):
            esz = torch.empty(0, dtype=elem_dtype, device="meta").element_size()
            k_bytes = slots * heads * dim_per_head * esz
            v_bytes = slots * V_HEADS * dim_per_head * esz
            self.record = k_bytes + v_bytes
            self.payload = torch.empty(layer_count * self.record, dtype=torch.uint8, device=device)
            self.wire_k = []
            self.wire_v = []
            for i in range(layer_count):
                lo = i * self.record
                k = self.payload[lo:lo + k_bytes].view(elem_dtype)
                v = self.payload[lo + k_bytes:lo + self.record].view(elem_dtype)
                self.wire_k.append(k.view(slots, heads, dim_per_head))
                self.wire_v.append(v.view(slots, V_HEADS, dim_per_head))
"""

SETUP = """
    from owl.kv import EngineKV
    from owl.wire import WireBuffer


    def setup(layer_count, heads, dim_per_head, device="cuda"):
        kv = EngineKV(layer_count, heads, dim_per_head, 4096, device=device)
        wire = WireBuffer(layer_count, heads, dim_per_head, 256, device=device)
        return kv, wire
"""


@pytest.mark.parametrize("v_heads, bug", [("heads", False), ("2 * heads", True)])
def test_renamed_buffers_scaling_alike_with_a_free_parameter_are_compared(
    tmp_path, capsys, v_heads, bug
):
    """`dim_per_head` has no default anywhere: sampled. `wire_k` and `kcache` (paired by what
    their names say) keep one ratio at every sample, so they are compared at one, as buffers
    of one name are; a mirror doubling V's heads is a finding at any sample."""
    write_tree(
        tmp_path,
        {
            "owl/__init__.py": "",
            "owl/kv.py": KV,
            "owl/wire.py": WIRE_BUFFER.replace("V_HEADS", v_heads),
            "owl/setup.py": SETUP,
        },
    )
    report = audit_json(tmp_path, capsys)
    summary = report["summary"]
    assert (summary["pairs"], summary["pairs_compared"]) == (1, 1)
    assert one_pair_verdict(report) == ({("LA001", "wire_v")} if bug else set())


@pytest.mark.parametrize(
    "name, budget",
    [
        ("MooncakeStoreConfig.local_buffer_size", True),  # a region's bytes, as stores size one
        ("segment_size", True),
        ("arena_size", True),
        ("budget_bytes", True),
        ("page_size", False),  # tokens per page
        ("buffer_slots", False),
        ("block_size", False),
    ],
)
def test_a_region_size_in_bytes_is_a_budget_not_a_count(name, budget):
    assert names_a_budget(name) is budget
