"""Pools built by the code's own builders, as other teams write them (session 29, from a
thirteenth probe written unseen): a classmethod that computes and returns `cls(...)`
(`from_config`, `mirror_of`) on either side, run through; a flag that classmethod does not
forward; classes looked up in a module-level dict and allocating through their own method,
sized by module constants; layers as the ids a stage keeps; a swap space of its GPU cache's
pages behind an enum layout. Each tree is audited with no configuration and checked against its
own tensors on torch's meta device.
"""

from __future__ import annotations

import pytest
from helpers import audit_json, built_by_the_tree, one_pair_verdict, write_tree

# ---- both sides through classmethods, one reading the wrong attribute ------------------------

SETTINGS = """
    import torch


    class LatentSettings:
        def __init__(self, depth=2, q_rank=48, kv_rank=32, rope=16, dtype=torch.bfloat16):
            self.depth = depth
            self.q_rank = q_rank
            self.kv_rank = kv_rank
            self.rope = rope
            self.dtype = dtype
"""

LATENT = """
    import torch


    class LatentRows:
        def __init__(self, capacity, depth, row, dtype, device="cuda"):
            self.capacity = capacity
            self.depth = depth
            self.rows = [torch.empty((capacity, 1, row), dtype=dtype, device=device)
                         for _ in range(depth)]

        @classmethod
        def from_settings(cls, s, capacity, device="cuda"):
            row = s.kv_rank + s.rope
            return cls(capacity, s.depth, row, s.dtype, device=device)
"""

OUTBOX = """
    import torch


    def _widths(s):
        return RANK, s.rope


    class Outbox:
        def __init__(self, slots, depth, width, dtype, device="cpu"):
            self.slots = slots
            self.depth = depth
            self.rows = torch.empty((depth, slots, width), dtype=dtype, device=device)

        @classmethod
        def for_settings(cls, s, slots, device="cpu"):
            rank, rope = _widths(s)
            return cls(slots, s.depth, rank + rope, s.dtype, device=device)
"""

WIRING = """
    from .latent import LatentRows
    from .outbox import Outbox
    from .settings import LatentSettings


    def wire(s=None, capacity=64, slots=16, device="cuda", outbox_device="cpu"):
        s = s or LatentSettings()
        rows = LatentRows.from_settings(s, capacity, device=device)
        box = Outbox.for_settings(s, slots, device=outbox_device)
        return rows, box
"""


@pytest.mark.parametrize("rank, bug", [("s.kv_rank", False), ("s.q_rank", True)])
def test_pools_built_by_classmethods_are_run_through(tmp_path, capsys, monkeypatch, rank, bug):
    """Neither call passes what the other does; both classmethods compute before `cls(...)`.
    The stand-in's attributes take values of their own, so a row read off the wrong one
    shows."""
    write_tree(
        tmp_path,
        {
            "relay/__init__.py": "",
            "relay/settings.py": SETTINGS,
            "relay/latent.py": LATENT,
            "relay/outbox.py": OUTBOX.replace("RANK", rank),
            "relay/wiring.py": WIRING,
        },
    )
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA001", "rows")} if bug else set())
    evidence = report["findings"][0]["pairing"] if bug else ""
    assert not bug or "wire()" in evidence
    rows, box = built_by_the_tree(
        tmp_path, monkeypatch, "relay", "wiring", "wire", device="meta", outbox_device="meta"
    )
    per_rows = sum(t.nbytes for t in rows.rows) // (rows.capacity * rows.depth)
    per_box = box.rows.nbytes // (box.slots * box.depth)
    assert (per_rows != per_box) is bug


# ---- a flag the mirror's classmethod does not forward -----------------------------------------

SLOTS = """
    import torch


    class ScaledSlots:
        def __init__(self, slots, layers, width, quantized: bool = False, device="cuda"):
            self.slots = slots
            self.layers = layers
            self.width = width
            self.store_dtype = torch.uint8 if quantized else torch.bfloat16
            self.data = torch.empty((layers, slots, width), dtype=self.store_dtype, device=device)
            self.scales = None
            if quantized:
                self.scales = torch.empty((layers, slots, width // 64), dtype=torch.float32,
                                          device=device)
"""

SHADOW = """
    import torch


    class Shadow:
        def __init__(self, slots, layers, width, store_dtype, quantized: bool = False,
                     device="cpu"):
            self.slots = slots
            self.layers = layers
            self.data = torch.empty((layers, slots, width), dtype=store_dtype, device=device)
            self.scales = None
            if quantized:
                self.scales = torch.empty((layers, slots, width // 64), dtype=torch.float32,
                                          device=device)

        @classmethod
        def mirror_of(cls, pool, ratio, device="cpu"):
            return cls(int(pool.slots * ratio), pool.layers, pool.width, pool.store_dtype,
                       FORWARD device=device)
"""

START = """
    from .shadow import Shadow
    from .slots import ScaledSlots


    def start(slots=32, layers=2, width=128, quantized=True, ratio=2.0, device="cuda",
              host_device="cpu"):
        pool = ScaledSlots(slots, layers, width, quantized=quantized, device=device)
        shadow = Shadow.mirror_of(pool, ratio, device=host_device)
        return pool, shadow
"""


@pytest.mark.parametrize(
    "forward, bug", [("quantized=pool.scales is not None,", False), ("", True)]
)
def test_a_flag_the_mirrors_builder_does_not_forward(tmp_path, capsys, monkeypatch, forward, bug):
    write_tree(
        tmp_path,
        {
            "shade/__init__.py": "",
            "shade/slots.py": SLOTS,
            "shade/shadow.py": SHADOW.replace("FORWARD", forward),
            "shade/start.py": START,
        },
    )
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA003", "scales")} if bug else set())
    if bug:
        message = report["findings"][0]["message"]
        assert "allocates only when its quantized is set" in message
    pool, shadow = built_by_the_tree(
        tmp_path, monkeypatch, "shade", "start", "start", device="meta", host_device="meta"
    )
    assert pool.scales is not None
    assert (shadow.scales is None) is bug


# ---- a dict of classes, an allocating method, module constants --------------------------------

CONSTANTS = """
    import torch

    LAYERS = 3
    HEADS = 8
    HEAD_DIM = 32
    SHARDS = 2
    DTYPE = torch.float16
"""

STORES = """
    import torch

    from .constants import DTYPE, HEAD_DIM, HEADS, LAYERS, SHARDS


    class BaseStore:
        def __init__(self, tokens, layers=LAYERS, heads=HEADS, head_dim=HEAD_DIM, shards=SHARDS,
                     dtype=DTYPE, device="cuda"):
            self.tokens = tokens
            self.layers = layers
            self.heads = heads
            self.local = heads // shards
            self.head_dim = head_dim
            self.dtype = dtype
            self.device = device
            self.keys = [self._make(self._key_shape()) for _ in range(layers)]
            self.vals = [self._make(self._val_shape()) for _ in range(layers)]

        def _key_shape(self):
            return (self.tokens, self.local, self.head_dim)

        def _val_shape(self):
            return (self.tokens, self.local, self.head_dim)

        def _make(self, shape):
            return torch.empty(shape, dtype=self.dtype, device=self.device)


    class DeviceStore(BaseStore):
        def _make(self, shape):
            return torch.zeros(shape, dtype=self.dtype, device=self.device)


    class SpillStore(BaseStore):
        def _val_shape(self):
            return (VAL_HEADS, self.tokens, self.head_dim)
"""

PICK = """
    from .constants import LAYERS
    from .stores import DeviceStore, SpillStore

    KINDS = {"device": DeviceStore, "spill": SpillStore}


    def store_class(kind):
        return KINDS[kind]


    def make(device="cuda", spill_device="cpu"):
        fast = store_class("device")(64, device=device)
        slow = store_class("spill")(256, device=spill_device)
        return fast, slow
"""


@pytest.mark.parametrize("val_heads, bug", [("self.local", False), ("self.heads", True)])
def test_classes_from_a_dict_allocating_through_a_method(
    tmp_path, capsys, monkeypatch, val_heads, bug
):
    """Both classes share `__init__` and its defaults (module constants): built from the same
    defaults, they are siblings; what `_make` allocates is read where it is called."""
    write_tree(
        tmp_path,
        {
            "tiers/__init__.py": "",
            "tiers/constants.py": CONSTANTS,
            "tiers/stores.py": STORES.replace("VAL_HEADS", val_heads),
            "tiers/pick.py": PICK,
        },
    )
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA001", "vals")} if bug else set())
    evidence = report["findings"][0]["pairing_evidence"] if bug else None
    assert not bug or "by the dict KINDS" in evidence["site"]["how"]
    fast, slow = built_by_the_tree(
        tmp_path, monkeypatch, "tiers", "pick", "make", device="meta", spill_device="meta"
    )
    per_fast = sum(t.nbytes for t in fast.vals) // (fast.tokens * fast.layers)
    per_slow = sum(t.nbytes for t in slow.vals) // (slow.tokens * slow.layers)
    assert (per_fast != per_slow) is bug


# ---- a stage's layer ids, iterated ------------------------------------------------------------

STAGE_POOL = """
    import torch


    class StageLatent:
        def __init__(self, tokens, layer_ids, rank, rope, dtype, device="cuda"):
            self.tokens = tokens
            self.layer_ids = list(layer_ids)
            self.buffers = [torch.zeros((tokens + 1, 1, rank + rope), dtype=dtype, device=device)
                            for _ in self.layer_ids]
"""


def test_a_pool_iterating_the_layer_ids_it_keeps(tmp_path, capsys, monkeypatch):
    """`for _ in self.layer_ids` after `self.layer_ids = list(layer_ids)`: one buffer per id,
    the pool recognised with no configuration."""
    write_tree(
        tmp_path,
        {"stage/__init__.py": "", "stage/pool.py": STAGE_POOL},
    )
    report = audit_json(tmp_path, capsys)
    assert report["summary"]["device_pools"] == 1
    pool = built_by_the_tree(
        tmp_path,
        monkeypatch,
        "stage",
        "pool",
        "StageLatent",
        tokens=8,
        layer_ids=[4, 5],
        rank=32,
        rope=16,
        dtype=__import__("torch").bfloat16,
        device="meta",
    )
    assert len(pool.buffers) == 2


# ---- an enum layout, a swap space of the cache's pages ----------------------------------------

LAYOUT = """
    import enum


    class PageLayout(enum.Enum):
        NHD = "nhd"
        HND = "hnd"

        def page(self, page_size, heads, dim):
            if self is PageLayout.NHD:
                return (page_size, heads, dim)
            return (heads, page_size, dim)

        @classmethod
        def parse(cls, value):
            return value if isinstance(value, cls) else cls(str(value).lower())
"""

PAGED = """
    import torch

    from .layout import PageLayout


    class PagedCache:
        def __init__(self, pool_size, page_size, depth, heads, dim, dtype,
                     layout=PageLayout.NHD, device="cuda"):
            self.page_size = page_size
            self.num_pages = pool_size // page_size
            self.depth = depth
            self.heads = heads
            self.dim = dim
            self.dtype = dtype
            self.layout = PageLayout.parse(layout)
            shape = (self.num_pages,) + self.layout.page(page_size, heads, dim)
            self.k = [torch.empty(shape, dtype=dtype, device=device) for _ in range(depth)]
            self.v = [torch.empty(shape, dtype=dtype, device=device) for _ in range(depth)]
"""

SWAP = """
    import torch


    class SwapArea:
        def __init__(self, cache, ratio: float, device="cpu"):
            self.num_pages = int(cache.num_pages * ratio)
            self.page_size = cache.page_size
            self.depth = cache.depth
            shape = (self.num_pages,) + cache.layout.page(cache.page_size, cache.heads, WIDTH)
            self.k = [torch.empty(shape, dtype=cache.dtype, device=device)
                      for _ in range(self.depth)]
            self.v = [torch.empty(shape, dtype=cache.dtype, device=device)
                      for _ in range(self.depth)]
"""

ENGINE = """
    import torch

    from .paged import PagedCache
    from .swap import SwapArea


    def boot(device="cuda", swap_device="cpu"):
        kwargs = {"pool_size": 64, "page_size": 16, "depth": 2, "heads": 4, "dim": 32,
                  "dtype": torch.float16, "layout": "nhd"}
        cache = PagedCache(**kwargs, device=device)
        swap = SwapArea(cache, 1.5, device=swap_device)
        return cache, swap
"""


@pytest.mark.parametrize("width, bug", [("cache.dim", False), ("cache.dim * 2", True)])
def test_a_swap_space_of_its_caches_pages_behind_an_enum_layout(
    tmp_path, capsys, monkeypatch, width, bug
):
    """The pack's `layout` strings are not values of this class's enum parameter (it defaults
    to a member): not explored. The swap space counts pages and keeps the page size: it is
    measured per token, as its cache is."""
    write_tree(
        tmp_path,
        {
            "paging/__init__.py": "",
            "paging/layout.py": LAYOUT,
            "paging/paged.py": PAGED,
            "paging/swap.py": SWAP.replace("WIDTH", width),
            "paging/engine.py": ENGINE,
        },
    )
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA001", "k"), ("LA001", "v")} if bug else set())
    cache, swap = built_by_the_tree(
        tmp_path, monkeypatch, "paging", "engine", "boot", device="meta", swap_device="meta"
    )
    per_cache = cache.k[0].nbytes // (cache.num_pages * cache.page_size)
    per_swap = swap.k[0].nbytes // (swap.num_pages * swap.page_size)
    assert (per_cache != per_swap) is bug


# ---- a class a function chooses, from what a config object says ------------------------------

CHOICE = """
    import torch


    class PlainPool:
        def __init__(self, tokens, layers, heads, head_dim, dtype, device="cuda"):
            self.tokens = tokens
            self.layers = layers
            self.k_buffer = [torch.empty((tokens, heads, head_dim), dtype=dtype, device=device)
                             for _ in range(layers)]
            self.v_buffer = [torch.empty((tokens, heads, head_dim), dtype=dtype, device=device)
                             for _ in range(layers)]


    class ScaledPool(PlainPool):
        def __init__(self, tokens, layers, heads, head_dim, dtype=torch.int8, device="cuda"):
            super().__init__(tokens, layers, heads, head_dim, dtype, device)
            self.k_scale = [torch.ones((tokens, heads), dtype=torch.float16, device=device)
                            for _ in range(layers)]
            self.v_scale = [torch.ones((tokens, heads), dtype=torch.float16, device=device)
                            for _ in range(layers)]


    def pool_class(kind):
        if kind == "int8":
            return ScaledPool
        return PlainPool
"""

SPILL = """
    import torch


    class Spill:
        def __init__(self, layers, heads, head_dim, budget_bytes, dtype, scaled: bool = False,
                     device="cpu"):
            self.layers = layers
            row = 2 * heads * head_dim * torch.empty((), dtype=dtype).element_size()
            if scaled:
                row += 2 * heads * 2
            self.rows = budget_bytes // (row * layers)
            self.k_data = torch.empty((layers, self.rows, heads, head_dim), dtype=dtype,
                                      device=device)
            self.v_data = torch.empty((layers, self.rows, heads, head_dim), dtype=dtype,
                                      device=device)
            if scaled:
                self.k_scale = torch.empty((layers, self.rows, heads), dtype=SCALE,
                                           device=device)
                self.v_scale = torch.empty((layers, self.rows, heads), dtype=SCALE,
                                           device=device)
"""

SETUP = """
    import torch

    from .pools import pool_class
    from .spill import Spill

    TYPES = {"int8": torch.int8, "bf16": torch.bfloat16}


    class Model:
        def __init__(self, layers=2, kv_heads=8, head_dim=64):
            self.layers = layers
            self.kv_heads = kv_heads
            self.head_dim = head_dim


    class Cache:
        def __init__(self, kind="int8", tokens=64, spill_bytes=1 << 20, tp_size=2):
            self.kind = kind
            self.tokens = tokens
            self.spill_bytes = spill_bytes
            self.tp_size = tp_size


    def setup(model=None, cache=None, device="cuda", spill_device="cpu"):
        model = model or Model()
        cache = cache or Cache()
        heads = model.kv_heads // cache.tp_size
        dtype = TYPES[cache.kind]
        cls = pool_class(cache.kind)
        pool = cls(cache.tokens, model.layers, heads, model.head_dim, dtype=dtype, device=device)
        spill = Spill(model.layers, heads, model.head_dim, budget_bytes=cache.spill_bytes,
                      dtype=dtype, scaled=cache.kind == "int8", device=spill_device)
        return pool, spill
"""


@pytest.mark.parametrize("scale, bug", [("torch.float16", False), ("torch.float32", True)])
def test_a_pool_class_a_function_chooses_from_the_config(tmp_path, capsys, monkeypatch, scale, bug):
    """`cls = pool_class(cache.kind)` then `cls(...)`: each class the function may return is
    built where the run chooses it; the stand-in's `kind`, compared with "int8", takes that
    text; the parallel degree divides the heads (sampled 2), the byte budget leaves room; the
    spill's `k_data`, `v_data` hold what the pool's `k_buffer`, `v_buffer` do beside scales of
    one name."""
    write_tree(
        tmp_path,
        {
            "spill/__init__.py": "",
            "spill/pools.py": CHOICE,
            "spill/spill.py": SPILL.replace("SCALE", scale),
            "spill/setup.py": SETUP,
        },
    )
    report = audit_json(tmp_path, capsys)
    pairs = report["summary"]
    assert pairs["pairs"] == pairs["pairs_compared"] == 1
    found = {(f["code"], f["message"].split(":", 1)[0]) for f in report["findings"]}
    assert found == ({("LA001", "k_scale"), ("LA001", "v_scale")} if bug else set())
    pool, spill = built_by_the_tree(
        tmp_path, monkeypatch, "spill", "setup", "setup", device="meta", spill_device="meta"
    )
    per_pool = pool.k_scale[0].nbytes // pool.tokens
    per_spill = spill.k_scale.nbytes // (spill.rows * spill.layers)
    assert (per_pool != per_spill) is bug
    assert pool.k_buffer[0].nbytes // pool.tokens == spill.k_data.nbytes // (spill.rows * 2)
