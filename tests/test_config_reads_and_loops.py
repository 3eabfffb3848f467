"""Idioms of the fourteenth probe (tests/data/probe30), each under other names.

- a config kept as a dict on an object whose properties read its keys (`self.spec["rank"]`):
  the keys are sampled as the object's attributes, as a dict given to a pool is;
- a config module parsing an embedded JSON text (`json.loads(TEXT)`, `copy.deepcopy`): plain
  data, read as Python reads it;
- a dataclass field defaulting to an enum member (`precision: Precision = Precision.HALF`)
  that a property maps to a torch dtype: the member, as the class gives it;
- an environment variable the rule pack does not list, read with the code's own default:
  taken as unset, and said with the figures;
- per-layer shapes appended in a `range` loop, then allocated by a comprehension over them:
  one allocation per step of that loop.

Each tree is audited with no configuration; the buggy and fixed forms are checked against
their own tensors on torch's meta device.
"""

from __future__ import annotations

import pytest
from helpers import audit_json, build, build_index, built_by_the_tree, one_pair_verdict, write_tree

from auditor.interpret.environment import merge_unset, unset_note


def _per_token_layer(buffers, tokens: int, layers: int) -> int:
    return sum(t.nbytes for t in buffers) // (tokens * layers)


LEDGER_SETTINGS = """
    import json
    from functools import cached_property

    _SPEC = '{"layers": 3, "latent": 256, "rope": 32}'


    def read_spec(text=None):
        return json.loads(text if text is not None else _SPEC)


    class Geometry:
        def __init__(self, spec):
            self.spec = spec

        @cached_property
        def depth(self):
            return int(self.spec["layers"])

        @property
        def latent(self):
            return self.spec["latent"]

        @property
        def row(self):
            return self.latent + self.spec["rope"]
"""

LEDGER_POOLS = """
    import torch

    from .settings import Geometry, read_spec


    class LatentPool:
        def __init__(self, size, geo: Geometry, dtype=torch.bfloat16, device="cuda"):
            self.size = size
            self.geo = geo
            self.dtype = dtype
            self.layer_num = geo.depth
            self.kv_buffer = [
                torch.empty((size + 1, 1, geo.row), dtype=dtype, device=device)
                for _ in range(self.layer_num)
            ]


    class LatentHost:
        def __init__(self, device_pool, ratio: float = 2.0, device="cpu"):
            self.device_pool = device_pool
            geo = device_pool.geo
            self.size = int(device_pool.size * ratio)
            self.kv_buffer = torch.empty(
                (geo.depth, self.size, 1, WIDTH), dtype=device_pool.dtype, device=device
            )


    def build(size=1024, device="cuda", host_device="cpu"):
        geo = Geometry(read_spec())
        pool = LatentPool(size, geo, device=device)
        host = LatentHost(pool, device=host_device)
        return pool, host
"""


@pytest.mark.parametrize("width, bug", [("geo.row", False), ("geo.latent", True)])
def test_keys_of_a_dict_kept_by_a_config_object_are_its_attributes(
    tmp_path, capsys, monkeypatch, width, bug
):
    write_tree(
        tmp_path,
        {
            "ledger/__init__.py": "",
            "ledger/settings.py": LEDGER_SETTINGS,
            "ledger/pools.py": LEDGER_POOLS.replace("WIDTH", width),
        },
    )
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA001", "kv_buffer")} if bug else set())
    if bug:  # at sampled keys: the latent alone against latent + rope
        message = report["findings"][0]["message"]
        assert "geo.latent" in message and "geo.row" in message
    pool, host = built_by_the_tree(
        tmp_path, monkeypatch, "ledger", "pools", "build", device="meta", host_device="meta"
    )
    assert _per_token_layer(pool.kv_buffer, pool.size + 1, 3) == 576
    assert _per_token_layer([host.kv_buffer], host.size, 3) == (512 if bug else 576)


PARSED = {
    "pool.py": """
        import copy
        import json

        import torch

        DEFAULTS = '{"heads": 4, "width": 32, "dtype": "half", "extra": [1, 2]}'
        LONG = '[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]'


        class Pool:
            def __init__(self, size, layer_num, device="cuda"):
                base = json.loads(DEFAULTS)
                cfg = copy.deepcopy(base)
                cfg["heads"] = 2 * cfg["heads"]
                self.base_heads = base["heads"]
                self.extra = copy.copy(cfg["extra"])
                self.k = [torch.empty((size, cfg["heads"], cfg["width"]), dtype=torch.float16)
                          for _ in range(layer_num)]
                self.broken = json.loads("{not json")
                self.hooked = json.loads(DEFAULTS, object_hook=dict)
                self.long = json.loads(LONG)
                self.tensor_copy = copy.deepcopy(self.k[0])
    """
}


def test_an_embedded_json_config_is_read_as_python_reads_it(tmp_path, monkeypatch):
    from auditor.interpret import library

    monkeypatch.setattr(library, "JSON_TEXT_LIMIT", 64)  # LONG is over it, DEFAULTS not
    index = build_index(tmp_path, PARSED)
    built = build(index, "Pool", {"size": 8, "layer_num": 2})
    assert built["base_heads"] == 4  # the deep copy is a copy: the parsed dict kept its 4
    assert built["extra"] == [1, 2]
    assert built["k"][0].shape == (8, 8, 32)
    # text that is no JSON, and hooks, are not guessed
    assert "no JSON" in built["broken"].reason
    assert "hooks" in built["hooked"].reason
    assert "over 64 characters" in built["long"].reason  # bounded work
    assert "non-data value" in built["tensor_copy"].reason  # a tensor is not plain data


STORE_OPTIONS = """
    import enum
    from dataclasses import dataclass

    import torch


    class Precision(enum.Enum):
        HALF = "half"
        FULL = "full"


    _TORCH = {Precision.HALF: torch.float16, Precision.FULL: torch.float32}


    @dataclass
    class StoreOptions:
        block: int = 16
        precision: Precision = Precision.HALF

        @property
        def torch_dtype(self):
            return _TORCH[self.precision]


    @dataclass
    class Shape:
        layers: int = 2
        heads: int = 4
        width: int = 32
        shards: int = 2
"""

STORE_POOLS = """
    import torch

    from .options import Shape, StoreOptions


    class BlockStore:
        def __init__(self, opts: StoreOptions, shape: Shape, blocks: int, device="cuda"):
            self.layers = shape.layers
            self.blocks = blocks
            self.block_size = opts.block
            heads = shape.heads // shape.shards
            self.k = [torch.empty((blocks, opts.block, heads, shape.width),
                                  dtype=opts.torch_dtype, device=device)
                      for _ in range(self.layers)]


    class SpillStore:
        def __init__(self, opts: StoreOptions, shape: Shape, blocks: int, device="cpu"):
            self.layers = shape.layers
            self.blocks = blocks
            self.block_size = opts.block
            heads = HEADS
            self.k = [torch.empty((blocks, opts.block, heads, shape.width),
                                  dtype=opts.torch_dtype, device=device)
                      for _ in range(self.layers)]


    def open_store(blocks=64, spill_blocks=32, device="cuda", spill_device="cpu"):
        opts, shape = StoreOptions(), Shape()
        store = BlockStore(opts, shape, blocks, device=device)
        spill = SpillStore(opts, shape, spill_blocks, device=spill_device)
        return store, spill
"""


@pytest.mark.parametrize(
    "heads, bug", [("shape.heads // shape.shards", False), ("shape.heads", True)]
)
def test_a_field_defaulting_to_an_enum_member_is_that_member(
    tmp_path, capsys, monkeypatch, heads, bug
):
    write_tree(
        tmp_path,
        {
            "blocks/__init__.py": "",
            "blocks/options.py": STORE_OPTIONS,
            "blocks/pools.py": STORE_POOLS.replace("HEADS", heads),
        },
    )
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA001", "k")} if bug else set())
    if bug:
        assert "x float16 (2 B)" in report["findings"][0]["message"]
    store, spill = built_by_the_tree(
        tmp_path, monkeypatch, "blocks", "pools", "open_store", device="meta", spill_device="meta"
    )
    assert _per_token_layer(store.k, store.blocks * 16, 2) == 128
    assert _per_token_layer(spill.k, spill.blocks * 16, 2) == (256 if bug else 128)


GROUPED_QUANT = """
    import os

    GROUP = int(os.environ.get("RELAY_SCALE_GROUP", "32"))
"""

GROUPED_POOLS = """
    import torch

    from .quant import GROUP


    class ScaledPool:
        def __init__(self, size, layers, heads=4, width=64, device="cuda"):
            self.size = size
            self.layers = layers
            self.scales = [torch.empty((size, heads, width // GROUP), dtype=torch.float32,
                                       device=device) for _ in range(layers)]


    class ScaleRelay:
        def __init__(self, size, layers, heads=4, width=64, group=SIDE_GROUP, device="cpu"):
            self.size = size
            self.layers = layers
            self.scales = [torch.empty((size, heads, width // group), dtype=torch.float32,
                                       device=device) for _ in range(layers)]


    def open_relay(size=256, layers=2, heads=4, width=64, device="cuda", relay_device="cpu"):
        pool = ScaledPool(size, layers, heads, width, device=device)
        relay = ScaleRelay(size, layers, heads, width, device=relay_device)
        return pool, relay
"""


@pytest.mark.parametrize("group, bug", [("32", False), ("16", True)])
def test_a_variable_the_pack_does_not_list_is_read_as_unset_and_said(
    tmp_path, capsys, monkeypatch, group, bug
):
    monkeypatch.delenv("RELAY_SCALE_GROUP", raising=False)
    write_tree(
        tmp_path,
        {
            "relay/__init__.py": "",
            "relay/quant.py": GROUPED_QUANT,
            "relay/pools.py": GROUPED_POOLS.replace("SIDE_GROUP", group),
        },
    )
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA001", "scales")} if bug else set())
    said = "environment variable taken as unset (no value in the rule pack's [switches]): RELAY_SCALE_GROUP"
    if bug:
        assert said in report["findings"][0]["message"]
        assert "32 B/token/layer vs 64 B/token/layer" not in report["findings"][0]["message"]
    pool, relay = built_by_the_tree(
        tmp_path, monkeypatch, "relay", "pools", "open_relay", device="meta", relay_device="meta"
    )
    assert _per_token_layer(pool.scales, 256, 2) == 32
    assert _per_token_layer(relay.scales, 256, 2) == (64 if bug else 32)


ROWS = """
    from typing import List, Tuple

    import torch


    class RowCache:
        def __init__(self, depth, rows, heads, width, dtype=torch.float16, device="cuda"):
            self.depth = depth
            self.rows = rows
            dims: List[Tuple[int, ...]] = []
            for _ in range(depth):
                dims.append((rows, heads, width))
            self.k = [torch.empty(d, dtype=dtype, device=device) for d in dims]
            self.v = [torch.empty(d, dtype=dtype, device=device) for d in dims]


    class RowSpill:
        def __init__(self, depth, rows, heads, width, dtype=torch.float16, device="cpu"):
            self.depth = depth
            self.rows = rows
            self.k, self.v = [], []
            for _ in range(depth):
                self.k.append(torch.empty((rows, heads, width), dtype=dtype, device=device))
                self.v.append(torch.empty((rows, heads, V_WIDTH), dtype=dtype, device=device))


    def open_rows(depth=2, rows=128, spill_rows=64, heads=4, width=32, device="cuda",
                  spill_device="cpu"):
        cache = RowCache(depth, rows, heads, width, device=device)
        spill = RowSpill(depth, spill_rows, heads, width, device=spill_device)
        return cache, spill
"""


@pytest.mark.parametrize("v_width, bug", [("width", False), ("width // 2", True)])
def test_shapes_appended_per_layer_then_allocated_are_per_layer_allocations(
    tmp_path, capsys, monkeypatch, v_width, bug
):
    write_tree(
        tmp_path, {"rows/__init__.py": "", "rows/cache.py": ROWS.replace("V_WIDTH", v_width)}
    )
    report = audit_json(tmp_path, capsys)
    assert report["summary"]["device_pools"] == 2  # RowCache is a pool, its layers `dims`
    assert one_pair_verdict(report) == ({("LA001", "v")} if bug else set())
    cache, spill = built_by_the_tree(
        tmp_path, monkeypatch, "rows", "cache", "open_rows", device="meta", spill_device="meta"
    )
    assert _per_token_layer(cache.v, 128, 2) == 256
    assert _per_token_layer(spill.v, 64, 2) == (128 if bug else 256)


def test_variables_read_as_unset_are_said_once_in_one_note():
    notes = [unset_note("A"), "Host() assumed to accept: x", unset_note("B"), unset_note("A")]
    assert merge_unset(notes) == [
        "environment variables taken as unset (no value in the rule pack's [switches]): A, B",
        "Host() assumed to accept: x",
    ]
    assert merge_unset(["Host() assumed to accept: x"]) == ["Host() assumed to accept: x"]


SPREAD = """
    from typing import Sequence, Union

    import torch


    class HeadsPool:
        def __init__(self, size, num_layers, heads: Union[int, Sequence[int]], width=64,
                     device="cuda"):
            self.size = size
            self.num_layers = num_layers
            if isinstance(heads, int):
                heads = [heads] * num_layers
            self.heads = list(heads)
            self.kv = [torch.empty((size, 2, h, width), dtype=torch.float16, device=device)
                       for h in self.heads]


    class HeadsMirror:
        def __init__(self, device_pool: HeadsPool, size, device="cpu"):
            self.size = size
            self.kv = [torch.empty((size, KV, h, t.shape[-1]), dtype=t.dtype, device=device)
                       for h, t in zip(device_pool.heads, device_pool.kv)]


    def build(size=128, num_layers=2, heads=(4, 2), device="cuda", mirror_device="cpu"):
        pool = HeadsPool(size, num_layers, heads, device=device)
        return pool, HeadsMirror(pool, 2 * size, device=mirror_device)
"""


@pytest.mark.parametrize("kv, bug", [("2", False), ("1", True)])
def test_a_count_given_as_one_number_or_one_per_layer_is_sampled_as_a_number(
    tmp_path, capsys, monkeypatch, kv, bug
):
    """`heads: Union[int, Sequence[int]]` with no default: a number the code spreads per layer
    itself, sampled as one (it was a missing argument, and the pair never compared)."""
    write_tree(tmp_path, {"spread/__init__.py": "", "spread/pools.py": SPREAD.replace("KV", kv)})
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA001", "kv")} if bug else set())
    pool, mirror = built_by_the_tree(
        tmp_path, monkeypatch, "spread", "pools", "build", device="meta", mirror_device="meta"
    )
    assert _per_token_layer(pool.kv, 128, 2) == 768  # 4 and 2 heads of 64 halves, K and V
    assert _per_token_layer(mirror.kv, 256, 2) == (384 if bug else 768)


LANES_SPEC = """
    import torch

    DEFAULTS = {"layers": 2, "heads": 4, "width": 32, "page": 16, "pages": 64, "chunk": 100}


    class LaneSpec:
        def __init__(self, settings: dict):
            self.depth = settings["layers"]
            self.heads = settings["heads"]
            self.width = settings["width"]
            self.page_size = settings["page"]
            self.total_pages = settings["pages"]
            self.chunk = settings["chunk"]
            self.dtype = torch.float16
"""

LANES_CACHE = """
    import math

    import torch

    from .spec import DEFAULTS, LaneSpec


    class PagedLanes:
        def __init__(self, spec: LaneSpec, device="cuda"):
            self.page_size = spec.page_size
            self.num_pages = spec.total_pages
            self.k = [torch.empty((self.num_pages, spec.page_size, spec.heads, spec.width),
                                  dtype=spec.dtype, device=device) for _ in range(spec.depth)]


    class ChunkStaging:
        def __init__(self, spec: LaneSpec, device="cpu"):
            chunks = math.ceil(spec.chunk / spec.page_size)
            self.max_tokens = chunks * spec.page_size
            self.k = torch.empty((spec.depth, self.max_tokens, spec.heads * WIDTH),
                                 dtype=spec.dtype, device=device)


    def open_lanes(settings=None, device="cuda", staging_device="cpu"):
        spec = LaneSpec(settings or DEFAULTS)
        return PagedLanes(spec, device=device), ChunkStaging(spec, device=staging_device)
"""


@pytest.mark.parametrize("width, bug", [("spec.width", False), ("(spec.width // 2)", True)])
def test_a_row_count_the_code_keeps_under_a_token_name_counts_tokens(
    tmp_path, capsys, monkeypatch, width, bug
):
    """`self.max_tokens = chunks * spec.page_size`, then `torch.empty((spec.depth,
    self.max_tokens, row))`: the count is read off a config object's `chunk`, a name that says
    nothing, but the code keeps it as `max_tokens`. The staging is a pool beside the paged one
    (before: not audited, and the pair never made)."""
    write_tree(
        tmp_path,
        {
            "lanes/__init__.py": "",
            "lanes/spec.py": LANES_SPEC,
            "lanes/cache.py": LANES_CACHE.replace("WIDTH", width),
        },
    )
    report = audit_json(tmp_path, capsys)
    assert report["summary"]["device_pools"] == 2
    assert one_pair_verdict(report) == ({("LA001", "k")} if bug else set())
    paged, staging = built_by_the_tree(
        tmp_path, monkeypatch, "lanes", "cache", "open_lanes", device="meta", staging_device="meta"
    )
    assert _per_token_layer(paged.k, 64 * 16, 2) == 256
    assert _per_token_layer([staging.k], staging.max_tokens, 2) == (128 if bug else 256)


BYTE_ROWS = """
    import math

    import torch


    class LayeredPool:
        def __init__(self, num_layers, slots_per_page, max_tokens, heads=4, width=32,
                     dtype=torch.float16, device="cuda"):
            self.num_layers = num_layers
            self.slots_per_page = slots_per_page
            self.dtype = dtype
            self.width = width
            if isinstance(heads, int):
                heads = [heads] * num_layers
            self.heads_per_layer = list(heads)
            self.pages = math.ceil(max_tokens / slots_per_page)
            self.kv = []
            for i in range(num_layers):
                self.kv.append(torch.empty((self.pages, 2, slots_per_page,
                                            self.heads_per_layer[i], width), dtype=dtype,
                                           device=device))


    class ByteShadow:
        def __init__(self, primary, max_tokens, device="cpu"):
            self.slots_per_page = primary.slots_per_page
            self.pages = math.ceil(max_tokens / self.slots_per_page)
            item = torch.empty((), dtype=primary.dtype).element_size()
            self.page_bytes = []
            for h in primary.heads_per_layer:
                self.page_bytes.append(2 * self.slots_per_page * ROW_HEADS * primary.width * item)
            self.kv = [torch.empty((self.pages, b), dtype=torch.uint8, device=device)
                       for b in self.page_bytes]


    def build(device="cuda", shadow_device="cpu"):
        pool = LayeredPool(2, 16, 1024, heads=(4, 2), device=device)
        return pool, ByteShadow(pool, 4096, device=shadow_device)
"""


@pytest.mark.parametrize("heads, bug", [("h", False), ("(h + 1)", True)])
def test_rows_appended_per_item_of_the_devices_list_are_per_layer(
    tmp_path, capsys, monkeypatch, heads, bug
):
    """`self.page_bytes.append(...)` in a loop over the device's per-layer list, then one
    allocation per item of `self.page_bytes`: one buffer per layer of the device, each row the
    item appended, pages of the device's size (before: the host's token count not found, the
    pair never compared)."""
    write_tree(
        tmp_path, {"rows/__init__.py": "", "rows/shadow.py": BYTE_ROWS.replace("ROW_HEADS", heads)}
    )
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA001", "kv")} if bug else set())
    pool, shadow = built_by_the_tree(
        tmp_path, monkeypatch, "rows", "shadow", "build", device="meta", shadow_device="meta"
    )
    assert [t.nbytes // 1024 for t in pool.kv] == [512, 256]
    assert [t.nbytes // 4096 for t in shadow.kv] == ([640, 384] if bug else [512, 256])
