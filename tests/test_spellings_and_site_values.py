"""Idioms of the sixteenth probe (probe31 r07 and the unseen probe32), each under other names.

- per-layer lists built by `list(map(alloc, itertools.repeat(shape, n)))` with a lambda
  allocator, over a pipeline stage's `end_layer - start_layer`, and a host whose rows are read
  off the config object it shares with its pool (`cfg.spill_pages`);
- a device parameter with no default that the function building both pools passes a literal
  default of its own (`def make(latent=512)`): measured as that function builds it;
- a config dataclass the building function constructs with its defaults (`cfg = cfg or
  Settings()`) while the device is measured from the config point's stand-in: the same config;
- pools built side by side from the same arguments, the device given one more that sizes it
  (`shards=cfg.shards`): built as the function builds both;
- the device class chosen by a conditional expression (`cls = Quant if q else Plain`);
- layers looped over as a range a config object lists (`for _ in self.stage = spec.stage_range`).

Each tree is audited with no configuration; the buggy and fixed forms are checked against
their own tensors on torch's meta device.
"""

from __future__ import annotations

import json

import pytest
from helpers import (
    audit_json,
    build,
    build_index,
    built_by_the_tree,
    finding_figures,
    one_pair_verdict,
    write_tree,
)

from auditor.interpret.values import is_unknown


def _per_token_layer(buffers, tokens: int, layers: int) -> int:
    return sum(t.nbytes for t in buffers) // (tokens * layers)


STAGE_TREE = {
    "stagekv/__init__.py": "",
    "stagekv/config.py": """
        from typing import NamedTuple

        import torch


        class StageConfig(NamedTuple):
            layers: int = 6
            heads: int = 4
            key_dim: int = 96
            value_dim: int = 64
            page_size: int = 16
            pages: int = 32
            spill_pages: int = 48
            dtype: torch.dtype = torch.bfloat16
    """,
    "stagekv/pages.py": """
        import itertools

        import torch

        from stagekv.config import StageConfig


        class StagePages:
            def __init__(self, cfg: StageConfig, first_layer: int, last_layer: int, device="cuda"):
                self.cfg = cfg
                self.first_layer = first_layer
                self.last_layer = last_layer
                count = last_layer - first_layer
                k_shape = (cfg.pages, cfg.page_size, cfg.heads, cfg.key_dim)
                v_shape = (cfg.pages, cfg.page_size, cfg.heads, cfg.value_dim)
                make = lambda shape: torch.zeros(shape, dtype=cfg.dtype, device=device)
                self.keys = list(map(make, itertools.repeat(k_shape, count)))
                self.values = list(map(make, itertools.repeat(v_shape, count)))
    """,
    "stagekv/spill.py": """
        import itertools

        import torch

        from stagekv.config import StageConfig
        from stagekv.pages import StagePages


        class SpillTier:
            def __init__(self, cfg: StageConfig, pages: StagePages, device="cpu"):
                self.first_layer = pages.first_layer
                self.last_layer = pages.last_layer
                self.rows = cfg.spill_pages
                count = self.last_layer - self.first_layer
                k_shape = (self.rows, cfg.page_size, cfg.heads, cfg.key_dim)
                v_shape = (self.rows, cfg.page_size, cfg.heads, VALUE_DIM)
                make = lambda shape: torch.empty(shape, dtype=cfg.dtype, device=device)
                self.keys = list(map(make, itertools.repeat(k_shape, count)))
                self.values = list(map(make, itertools.repeat(v_shape, count)))
    """,
    "stagekv/build.py": """
        from stagekv.config import StageConfig
        from stagekv.pages import StagePages
        from stagekv.spill import SpillTier


        def build(cfg=None, stage=0, device="cuda", host_device="cpu"):
            cfg = cfg or StageConfig()
            per = cfg.layers // 2
            pages = StagePages(cfg, stage * per, (stage + 1) * per, device=device)
            return pages, SpillTier(cfg, pages, device=host_device)
    """,
}


@pytest.mark.parametrize("value_dim, bug", [("cfg.value_dim", False), ("cfg.key_dim", True)])
def test_lists_mapped_over_a_repeat_of_a_stage_span(tmp_path, capsys, monkeypatch, value_dim, bug):
    tree = dict(STAGE_TREE)
    tree["stagekv/spill.py"] = tree["stagekv/spill.py"].replace("VALUE_DIM", value_dim)
    write_tree(tmp_path, tree)
    report = audit_json(tmp_path, capsys)
    pages, spill = built_by_the_tree(
        tmp_path, monkeypatch, "stagekv", "build", "build", device="meta", host_device="meta"
    )
    cfg = pages.cfg
    device_v = _per_token_layer(pages.values, cfg.pages * cfg.page_size, 3)
    spill_v = _per_token_layer(spill.values, spill.rows * cfg.page_size, 3)
    assert device_v == 512 and spill_v == (768 if bug else 512)
    if not bug:
        assert one_pair_verdict(report) == set()
        return
    assert {f["code"] for f in report["findings"]} == {"LA001"}
    assert finding_figures(report) == {"values": (spill_v, device_v)}


def test_map_and_repeat_are_modelled_and_bounded(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                import itertools

                import torch


                class Pool:
                    def __init__(self, size, layer_num):
                        shape = (size, 4)
                        self.k = list(map(lambda s: torch.empty(s), itertools.repeat(shape, layer_num)))
                        self.widths = list(map(lambda a, b: a * b, [1, 2], [3, 4]))
                        self.endless = itertools.repeat(shape)
                        self.huge = itertools.repeat(shape, 10**9)
                        self.keyword = map(len, [[1]], strict=True)
            """
        },
    )
    built = build(index, "Pool", {"size": 8, "layer_num": 3})
    assert [t.shape for t in built["k"]] == [(8, 4)] * 3
    assert built["widths"] == [3, 8]
    assert is_unknown(built["endless"]) and "without a count" in built["endless"].reason
    assert is_unknown(built["huge"]) and "over the limit" in built["huge"].reason
    assert is_unknown(built["keyword"])


LATENT_TREE = {
    "latent/__init__.py": "",
    "latent/pool.py": """
        import torch


        class LatentPool:
            def __init__(self, max_tokens, latent, rope, n_layers, dtype=torch.bfloat16, device="cuda"):
                self.max_tokens = max_tokens
                self.latent = latent
                self.rope = rope
                self.n_layers = n_layers
                self.dtype = dtype
                self.rows = [
                    torch.zeros((max_tokens + 1, 1, latent + rope), dtype=dtype, device=device)
                    for _ in range(n_layers)
                ]
    """,
    "latent/host.py": """
        import torch


        class LatentHost:
            def __init__(self, device_pool, ratio=2.0, device="cpu"):
                self.device_pool = device_pool
                self.size = int(device_pool.max_tokens * ratio)
                width = WIDTH
                self.rows = torch.empty(
                    (device_pool.n_layers, self.size, 1, width), dtype=device_pool.dtype, device=device
                )
    """,
    "latent/build.py": """
        import torch

        from latent.host import LatentHost
        from latent.pool import LatentPool


        def make(device="cuda", host_device="cpu", max_tokens=256, n_layers=4, latent=512, rope=64):
            device_pool = LatentPool(
                max_tokens=max_tokens, latent=latent, rope=rope, n_layers=n_layers, device=device
            )
            host = LatentHost(device_pool, device=host_device)
            return device_pool, host
    """,
}


@pytest.mark.parametrize(
    "width, bug", [("device_pool.latent + device_pool.rope", False), ("device_pool.latent", True)]
)
def test_device_parameters_take_the_building_functions_defaults(
    tmp_path, capsys, monkeypatch, width, bug
):
    tree = dict(LATENT_TREE)
    tree["latent/host.py"] = tree["latent/host.py"].replace("WIDTH", width)
    write_tree(tmp_path, tree)
    report = audit_json(tmp_path, capsys)
    pool, host = built_by_the_tree(
        tmp_path, monkeypatch, "latent", "build", "make", device="meta", host_device="meta"
    )
    device_row = _per_token_layer(pool.rows, pool.max_tokens + 1, 4)
    host_row = _per_token_layer([host.rows], host.size, 4)
    assert device_row == 1152 and host_row == (1024 if bug else 1152)
    # without the function's values, `latent` and `rope` have none: the figures were unresolved
    assert one_pair_verdict(report) == ({("LA001", "rows")} if bug else set())
    if bug:
        assert finding_figures(report) == {"rows": (host_row, device_row)}


SETTINGS_TREE = {
    "slots/__init__.py": "",
    "slots/settings.py": """
        from dataclasses import dataclass

        import torch


        @dataclass
        class Settings:
            layers: int = 8
            heads: int = 4
            dim: int = 64
            slots: int = 512
            spare_slots: int = 1024
            store: torch.dtype = torch.float8_e4m3fn
            scale: torch.dtype = torch.float32
    """,
    "slots/pool.py": """
        import torch

        from slots.settings import Settings


        class SlotPool:
            def __init__(self, settings: Settings, device="cuda"):
                self.layers = settings.layers
                self.heads = settings.heads
                self.dim = settings.dim
                shape = (settings.layers, settings.slots, settings.heads, settings.dim)
                self.keys = torch.empty(shape, dtype=settings.store, device=device)
                self.key_scale = torch.empty(shape[:3], dtype=settings.scale, device=device)
    """,
    "slots/mirror.py": """
        import torch


        class SlotMirror:
            def __init__(self, pool, spare, store, scale, device="cpu"):
                self.spare = spare
                self.keys = torch.empty((pool.layers, spare, pool.heads, pool.dim), dtype=STORE)
                self.key_scale = torch.empty((pool.layers, spare, pool.heads), dtype=scale)
    """,
    "slots/server.py": """
        from slots.mirror import SlotMirror
        from slots.pool import SlotPool
        from slots.settings import Settings


        def start(device="cuda", settings=None):
            settings = settings or Settings()
            pool = SlotPool(settings, device=device)
            mirror = SlotMirror(pool, settings.spare_slots, settings.store, settings.scale)
            return pool, mirror
    """,
}


@pytest.mark.parametrize("store, bug", [("store", False), ("torch.bfloat16", True)])
def test_a_config_built_with_its_defaults_is_the_points_config(
    tmp_path, capsys, monkeypatch, store, bug
):
    tree = dict(SETTINGS_TREE)
    tree["slots/mirror.py"] = tree["slots/mirror.py"].replace("STORE", store)
    write_tree(tmp_path, tree)
    report = audit_json(tmp_path, capsys)
    # the device's dtype is varied as the stand-in's; the mirror's comes from `Settings()` in
    # start(): before, that one kept its fp8 default while the device varied (a false finding)
    verdict = one_pair_verdict(report)
    assert verdict == ({("LA001", "keys")} if bug else set())
    pool, mirror = built_by_the_tree(
        tmp_path, monkeypatch, "slots", "server", "start", device="meta"
    )
    assert _per_token_layer([pool.keys], 512, 8) == 256
    assert _per_token_layer([mirror.keys], 1024, 8) == (512 if bug else 256)
    assert _per_token_layer([mirror.key_scale], 1024, 8) == _per_token_layer(
        [pool.key_scale], 512, 8
    )


SHARDED_TREE = {
    "blocks/__init__.py": "",
    "blocks/config.py": """
        from dataclasses import dataclass

        import torch


        @dataclass
        class Config:
            layers: int = 4
            kv_heads: int = 8
            head_size: int = 64
            block_size: int = 16
            blocks: int = 32
            host_blocks: int = 48
            shards: int = 2
            dtype: torch.dtype = torch.float16
    """,
    "blocks/primary.py": """
        import torch


        class PrimaryPool:
            def __init__(self, layers, kv_heads, head_size, block_size, blocks, dtype, shards=1, device="cuda"):
                self.heads_per_shard = (kv_heads + shards - 1) // shards
                self.pool = torch.empty(
                    (blocks, layers, 2, self.heads_per_shard, block_size, head_size), dtype=dtype, device=device
                )
    """,
    "blocks/secondary.py": """
        import torch


        class SecondaryPool:
            def __init__(self, layers, kv_heads, head_size, block_size, blocks, dtype, device="cpu"):
                self.pool = torch.empty((blocks, layers, 2, kv_heads, block_size, head_size), dtype=dtype, device=device)
    """,
    "blocks/runtime.py": """
        from blocks.config import Config
        from blocks.primary import PrimaryPool
        from blocks.secondary import SecondaryPool


        def create(config=None, device="cuda", host_device="cpu"):
            config = config or Config()
            primary = PrimaryPool(
                layers=config.layers, kv_heads=config.kv_heads, head_size=config.head_size,
                block_size=config.block_size, blocks=config.blocks, dtype=config.dtype,
                shards=config.shards, device=device,
            )
            secondary = SecondaryPool(
                layers=config.layers, kv_heads=HEADS, head_size=config.head_size,
                block_size=config.block_size, blocks=config.host_blocks, dtype=config.dtype, device=host_device,
            )
            return primary, secondary
    """,
}


@pytest.mark.parametrize(
    "heads, bug", [("config.kv_heads // config.shards", False), ("config.kv_heads", True)]
)
def test_siblings_where_the_device_is_given_more_are_built_as_the_function_builds_them(
    tmp_path, capsys, monkeypatch, heads, bug
):
    tree = dict(SHARDED_TREE)
    tree["blocks/runtime.py"] = tree["blocks/runtime.py"].replace("HEADS", heads)
    write_tree(tmp_path, tree)
    report = audit_json(tmp_path, capsys)
    primary, secondary = built_by_the_tree(
        tmp_path, monkeypatch, "blocks", "runtime", "create", device="meta", host_device="meta"
    )
    device_row = _per_token_layer([primary.pool], 32 * 16, 4)
    host_row = _per_token_layer([secondary.pool], 48 * 16, 4)
    assert device_row == 1024 and host_row == (2048 if bug else 1024)
    # before: measured with the device's default `shards=1`, both sides agreed
    assert one_pair_verdict(report) == ({("LA001", "pool")} if bug else set())
    if bug:  # at the stand-in's sampled attributes: twice the device's, as on the meta device
        first, second = finding_figures(report)["pool"]
        assert first == 2 * second
        # its untyped `config` read as `Config`, the class create() builds when given none
        assert "Config.shards" in json.dumps(report["findings"][0])


CHOSEN_TREE = {
    "chosen/__init__.py": "",
    "chosen/managers.py": """
        import torch


        class PlainManager:
            def __init__(self, size, dtype, head_num, head_dim, layer_num, device="cuda"):
                self.kv_buffer = torch.empty((layer_num, size + 1, 2 * head_num, head_dim), dtype=dtype, device=device)


        class Int8Manager:
            def __init__(self, size, dtype, head_num, head_dim, layer_num, device="cuda"):
                self.kv_buffer = torch.empty((layer_num, size + 1, 2 * head_num, head_dim), dtype=torch.int8, device=device)
                self.scale_buffer = torch.empty((layer_num, size + 1, 2 * head_num, 1), dtype=dtype, device=device)
    """,
    "chosen/offload.py": """
        import torch


        class OffloadCache:
            def __init__(self, size, dtype, head_num, head_dim, layer_num, int8kv=False, device="cpu"):
                store = STORE if int8kv else dtype
                self.kv_buffer = torch.empty((layer_num, size + 1, 2 * head_num, head_dim), dtype=store, device=device)
                self.scale_buffer = None
                if int8kv:
                    self.scale_buffer = torch.empty((layer_num, size + 1, 2 * head_num, 1), dtype=dtype, device=device)
    """,
    "chosen/init.py": """
        import torch

        from chosen.managers import Int8Manager, PlainManager
        from chosen.offload import OffloadCache


        def init_pools(device="cuda", host_device="cpu", size=256, layer_num=4, head_num=8, head_dim=64, dtype=torch.float16, mode="int8"):
            int8kv = mode == "int8"
            manager_cls = Int8Manager if int8kv else PlainManager
            manager = manager_cls(size, dtype, head_num, head_dim, layer_num, device=device)
            cache = OffloadCache(size, dtype, head_num, head_dim, layer_num, int8kv=int8kv, device=host_device)
            return manager, cache
    """,
}


@pytest.mark.parametrize("store, bug", [("torch.int8", False), ("dtype", True)])
def test_a_device_class_chosen_by_a_conditional_expression_is_paired(
    tmp_path, capsys, monkeypatch, store, bug
):
    tree = dict(CHOSEN_TREE)
    tree["chosen/offload.py"] = tree["chosen/offload.py"].replace("STORE", store)
    write_tree(tmp_path, tree)
    report = audit_json(tmp_path, capsys)
    manager, cache = built_by_the_tree(
        tmp_path, monkeypatch, "chosen", "init", "init_pools", device="meta", host_device="meta"
    )
    assert _per_token_layer([manager.kv_buffer], 257, 4) == 1024
    assert _per_token_layer([cache.kv_buffer], 257, 4) == (2048 if bug else 1024)
    summary = report["summary"]
    assert summary["pairs_compared"] >= 1  # before: no pair at all ("no host pool found")
    pairs = {(f["code"], f["message"].split(":", 1)[0]) for f in report["findings"]}
    assert pairs == ({("LA001", "kv_buffer")} if bug else set())
    if bug:  # at the rule pack's head_dim (128), twice the meta device's figures at 64
        assert finding_figures(report) == {"kv_buffer": (4096, 2048)}


STAGE_RANGE_TREE = {
    "ranged/__init__.py": "",
    "ranged/spec.py": """
        from dataclasses import dataclass

        import torch


        @dataclass(frozen=True)
        class Spec:
            num_layers: int = 12
            stage: int = 1
            stages: int = 3
            heads: int = 2
            head_dim: int = 64
            page_size: int = 16
            num_pages: int = 64
            host_pages: int = 96
            dtype: torch.dtype = torch.float16

            @property
            def stage_layers(self):
                per = self.num_layers // self.stages
                return range(self.stage * per, (self.stage + 1) * per)
    """,
    "ranged/pools.py": """
        import torch

        from ranged.spec import Spec


        class StagePool:
            def __init__(self, spec: Spec, device="cuda"):
                self.spec = spec
                self.stage = spec.stage_layers
                shape = (spec.num_pages, spec.page_size, spec.heads, spec.head_dim)
                self.k = [torch.empty(shape, dtype=spec.dtype, device=device) for _ in self.stage]


        class StageMirror:
            def __init__(self, pool: StagePool, spec: Spec, device="cpu"):
                self.rows = spec.host_pages
                shape = (spec.host_pages, spec.page_size, spec.heads, WIDTH)
                self.k = [torch.empty(shape, dtype=spec.dtype, device=device) for _ in range(len(pool.stage))]


        def build(device="cuda", host_device="cpu"):
            spec = Spec()
            pool = StagePool(spec, device=device)
            return pool, StageMirror(pool, spec, device=host_device)
    """,
}


@pytest.mark.parametrize("width, bug", [("spec.head_dim", False), ("2 * spec.head_dim", True)])
def test_layers_looped_over_a_range_a_config_object_lists(
    tmp_path, capsys, monkeypatch, width, bug
):
    tree = dict(STAGE_RANGE_TREE)
    tree["ranged/pools.py"] = tree["ranged/pools.py"].replace("WIDTH", width)
    write_tree(tmp_path, tree)
    report = audit_json(tmp_path, capsys)
    # before: "not audited: StagePool ... per layer over spec.stage_layers"
    assert report["summary"]["device_pools"] >= 1
    pool, mirror = built_by_the_tree(
        tmp_path, monkeypatch, "ranged", "pools", "build", device="meta", host_device="meta"
    )
    device_row = _per_token_layer(pool.k, 64 * 16, 4)
    host_row = _per_token_layer(mirror.k, 96 * 16, 4)
    assert device_row == 256 and host_row == (512 if bug else 256)
    assert one_pair_verdict(report) == ({("LA001", "k")} if bug else set())


def test_setattr_sets_what_it_names_and_an_unknown_name_leaves_the_object_incomplete(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                import torch

                LAYOUT = {"k_cache": (4, 8), "v_cache": (4, 2)}


                class Pool:
                    def __init__(self, size, layer_num, name_of=None):
                        for name, (heads, dim) in LAYOUT.items():
                            setattr(self, name, torch.empty((layer_num, size, heads, dim)))


                class Opaque:
                    def __init__(self, size, layer_num, name_of):
                        setattr(self, name_of(), torch.empty((layer_num, size)))
            """
        },
    )
    built = build(index, "Pool", {"size": 8, "layer_num": 2})
    assert built["k_cache"].shape == (2, 8, 4, 8) and built["v_cache"].shape == (2, 8, 4, 2)
    opaque = build(index, "Opaque", {"size": 8, "layer_num": 2})
    assert opaque.instance.incomplete is not None  # the name is not known: nothing guessed
    assert not any(hasattr(v, "shape") for v in opaque.instance.attrs.values())


GEOMETRY_TREE = {
    "geo/__init__.py": "",
    "geo/shape.py": """
        from dataclasses import dataclass


        @dataclass
        class AttnShape:
            depth: int = 6
            rank: int = 256
            rotary: int = 32

            @property
            def row(self):
                return self.rank + self.rotary

            @property
            def compressed(self):
                return self.rank
    """,
    "geo/pools.py": """
        import torch


        class RowPool:
            def __init__(self, size, dtype, shape, device="cuda"):
                self.size = size
                self.dtype = dtype
                self.shape = shape
                self.layer_num = shape.depth
                self.rows = [
                    torch.zeros((size + 1, 1, shape.row), dtype=dtype, device=device)
                    for _ in range(self.layer_num)
                ]


        class RowPoolHost:
            def __init__(self, device_pool, ratio=2.0, device="cpu"):
                shape = device_pool.shape
                self.size = int(device_pool.size * ratio)
                self.rows = torch.empty(
                    (device_pool.layer_num, self.size, 1, WIDTH), dtype=device_pool.dtype, device=device
                )
    """,
    "geo/init.py": """
        import torch

        from geo.pools import RowPool, RowPoolHost
        from geo.shape import AttnShape


        def init_pools(shape=None, size=512, dtype=torch.bfloat16, device="cuda", host_device="cpu"):
            if shape is None:
                shape = AttnShape()
            pool = RowPool(size, dtype, shape, device=device)
            return pool, RowPoolHost(pool, device=host_device)
    """,
}


@pytest.mark.parametrize("width, bug", [("shape.row", False), ("shape.compressed", True)])
def test_an_untyped_config_object_is_the_class_the_code_builds_the_pool_with(
    tmp_path, capsys, monkeypatch, width, bug
):
    tree = dict(GEOMETRY_TREE)
    tree["geo/pools.py"] = tree["geo/pools.py"].replace("WIDTH", width)
    write_tree(tmp_path, tree)
    report = audit_json(tmp_path, capsys)
    pool, host = built_by_the_tree(
        tmp_path, monkeypatch, "geo", "init", "init_pools", device="meta", host_device="meta"
    )
    device_row = _per_token_layer(pool.rows, pool.size + 1, 6)
    host_row = _per_token_layer([host.rows], host.size, 6)
    assert device_row == 576 and host_row == (512 if bug else 576)
    # before: `shape.row` and `shape.compressed` were sampled as numbers of their own, and the
    # host's read had no value: unresolved, never compared
    assert one_pair_verdict(report) == ({("LA001", "rows")} if bug else set())
    if bug:  # the properties run on the class's fields: the figures are the meta device's
        assert finding_figures(report) == {"rows": (host_row, device_row)}


def test_objects_of_two_classes_passed_leave_the_parameter_untyped(tmp_path):
    from helpers import find_class

    from auditor.evaluation.passed_classes import passed_class

    tree = dict(GEOMETRY_TREE)
    tree["geo/pools.py"] = tree["geo/pools.py"].replace("WIDTH", "shape.row")
    index = build_index(tmp_path / "one", tree)
    parsed = [m.parsed for m in index.modules.values()]
    assert any(m.name == "geo.init" for m in index.modules.values())
    found = passed_class(index, parsed, {}, find_class(index, "RowPool"), "shape", 2)
    assert found is not None and found.name == "AttnShape"  # the one class passed
    tree["geo/other.py"] = """
        from geo.pools import RowPool


        class OtherShape:
            depth = 2
            row = 8


        def other(size=8):
            shape = OtherShape()
            return RowPool(size, None, shape)
    """
    index = build_index(tmp_path / "two", tree)
    parsed = [m.parsed for m in index.modules.values()]
    assert any(m.name == "geo.other" for m in index.modules.values())
    assert passed_class(index, parsed, {}, find_class(index, "RowPool"), "shape", 2) is None


SPILL_TREE = {
    "spill/__init__.py": "",
    "spill/cache.py": """
        import torch

        PAGE_SIZE = 32


        class BlockCache:
            def __init__(self, num_blocks, num_layers, kv_heads, head_dim, dtype, store_dtype=None, device="cuda"):
                self.store = store_dtype if store_dtype is not None else dtype
                self.kv = [
                    torch.empty((num_blocks, 2, PAGE_SIZE, kv_heads, head_dim), dtype=self.store, device=device)
                    for _ in range(num_layers)
                ]
    """,
    "spill/tier.py": """
        import torch

        from spill.cache import PAGE_SIZE


        class SpillTier:
            def __init__(self, num_blocks, num_layers, kv_heads, head_dim, dtype, device="cpu"):
                self.kv = [
                    torch.empty((num_blocks, 2, PAGE_SIZE, kv_heads, head_dim), dtype=dtype, device=device)
                    for _ in range(num_layers)
                ]
    """,
    "spill/init.py": """
        import torch

        from spill.cache import BlockCache
        from spill.tier import SpillTier

        STORES = {None: None, "fp8": torch.float8_e4m3fn}


        def init(device="cuda", host_device="cpu", num_blocks=64, host_blocks=128, num_layers=4,
                 kv_heads=4, head_dim=64, dtype=torch.bfloat16, store="fp8"):
            cache = BlockCache(num_blocks=num_blocks, num_layers=num_layers, kv_heads=kv_heads,
                               head_dim=head_dim, dtype=dtype, store_dtype=STORES[store], device=device)
            tier = SpillTier(num_blocks=host_blocks, num_layers=num_layers, kv_heads=kv_heads,
                             head_dim=head_dim, dtype=HOST_DTYPE, device=host_device)
            return cache, tier
    """,
}


@pytest.mark.parametrize("host_dtype, bug", [("cache.store", False), ("dtype", True)])
def test_a_block_size_held_in_a_module_constant(tmp_path, capsys, monkeypatch, host_dtype, bug):
    tree = dict(SPILL_TREE)
    tree["spill/init.py"] = tree["spill/init.py"].replace("HOST_DTYPE", host_dtype)
    write_tree(tmp_path, tree)
    report = audit_json(tmp_path, capsys)
    cache, tier = built_by_the_tree(
        tmp_path, monkeypatch, "spill", "init", "init", device="meta", host_device="meta"
    )
    device_row = _per_token_layer(cache.kv, 64 * 32, 4)
    host_row = _per_token_layer(tier.kv, 128 * 32, 4)
    assert device_row == 512 and host_row == (1024 if bug else 512)
    # before: "the token count is in blocks and the pool holds no block size", both sides
    findings = {(f["code"], f["message"].split(":", 1)[0]) for f in report["findings"]}
    assert report["summary"]["pairs_compared"] == 1
    assert findings == ({("LA001", "kv")} if bug else set())
    if bug:  # the host in the model dtype, the device in fp8: twice, as on the meta device
        first, second = finding_figures(report)["kv"]
        assert first == 2 * second


PROMPT_TREE = {
    "prompt/__init__.py": "",
    "prompt/tokens.py": """
        import torch


        class TokenPool:
            def __init__(self, size, dtype, head_num, head_dim, layer_num, device="cuda"):
                self.kv_buffer = torch.empty((layer_num, size + 1, 2 * head_num, head_dim), dtype=dtype, device=device)
    """,
    "prompt/pages.py": """
        import torch


        class PromptPages:
            def __init__(self, page_num, tokens_per_page, layer_num, head_num, head_dim, dtype=torch.float16, device="cpu"):
                self.kv_buffer = torch.empty(
                    (page_num, layer_num, tokens_per_page, HEADS, head_dim), dtype=dtype, device=device
                )
    """,
    "prompt/init.py": """
        import torch

        from prompt.pages import PromptPages
        from prompt.tokens import TokenPool


        def init_pools(device="cuda", host_device="cpu", max_tokens=1024, layer_num=4, head_num=4,
                       head_dim=64, cache_pages=16, cache_page_tokens=32):
            pool = TokenPool(size=max_tokens, dtype=torch.float16, head_num=head_num, head_dim=head_dim,
                             layer_num=layer_num, device=device)
            pages = PromptPages(page_num=cache_pages, tokens_per_page=cache_page_tokens,
                                layer_num=layer_num, head_num=head_num, head_dim=head_dim, device=host_device)
            return pool, pages
    """,
}


@pytest.mark.parametrize("heads, bug", [("2 * head_num", False), ("head_num", True)])
def test_a_page_count_and_page_size_the_building_function_gives_only_the_host(
    tmp_path, capsys, monkeypatch, heads, bug
):
    tree = dict(PROMPT_TREE)
    tree["prompt/pages.py"] = tree["prompt/pages.py"].replace("HEADS", heads)
    write_tree(tmp_path, tree)
    report = audit_json(tmp_path, capsys)
    pool, pages = built_by_the_tree(
        tmp_path, monkeypatch, "prompt", "init", "init_pools", device="meta", host_device="meta"
    )
    device_row = _per_token_layer([pool.kv_buffer], 1025, 4)
    host_row = _per_token_layer([pages.kv_buffer], 16 * 32, 4)
    assert device_row == 1024 and host_row == (512 if bug else 1024)
    # before: `tokens_per_page` had no value (unresolved); counted per page (`page_num` read
    # as tokens), the host's figure was 32 times its own
    assert one_pair_verdict(report) == ({("LA001", "kv_buffer")} if bug else set())
    if bug:  # at the rule pack's head dimensions: half the device's, as on the meta device
        first, second = finding_figures(report)["kv_buffer"]
        assert 2 * first == second


INHERITED_TREES = {
    # a base constructor taking a `block_size` of its own, run by `super().__init__`: the
    # subclass's block size is the one it was given (a review found the base's used)
    "given": {
        "gp/__init__.py": "",
        "gp/pools.py": """
            import torch


            class PagedBase:
                def __init__(self, num_blocks, block_size=1):
                    self.num_blocks = num_blocks


            class PagedKV(PagedBase):
                def __init__(self, num_blocks, block_size, num_layers, heads, head_dim, dtype=torch.float16, device="cuda"):
                    super().__init__(num_blocks)
                    self.kv = [
                        torch.empty((num_blocks, block_size, 2, heads, head_dim), dtype=dtype, device=device)
                        for _ in range(num_layers)
                    ]


            class HostKV:
                def __init__(self, pool, num_tokens, device="cpu"):
                    first = pool.kv[0]
                    self.kv = [
                        torch.empty((num_tokens, 2, first.shape[3], first.shape[4]), dtype=first.dtype, device=device)
                        for _ in range(len(pool.kv))
                    ]
        """,
        "gp/init.py": """
            from gp.pools import HostKV, PagedKV


            def init(device="cuda", host_device="cpu"):
                pool = PagedKV(64, 16, 4, 8, 64, device=device)
                return pool, HostKV(pool, 4096, device=host_device)
        """,
    },
    # a block size constant bound to two values in the modules of a class's MRO (the shape is
    # the base's, in another module): neither is taken
    "constant": {
        "spill2/__init__.py": "",
        "spill2/base.py": """
            import torch

            PAGE_SIZE = 32


            class TierBase:
                def __init__(self, num_blocks, num_layers, kv_heads, head_dim, dtype, device="cpu"):
                    self.kv = [
                        torch.empty((num_blocks, 2, PAGE_SIZE, kv_heads, head_dim), dtype=dtype, device=device)
                        for _ in range(num_layers)
                    ]
        """,
        "spill2/tier.py": """
            from spill2.base import TierBase

            PAGE_SIZE = 16  # a transfer chunk, not the layout's


            class SpillTier(TierBase):
                def chunk(self):
                    return PAGE_SIZE
        """,
        "spill2/cache.py": """
            import torch

            PAGE_SIZE = 32


            class BlockCache:
                def __init__(self, num_blocks, num_layers, kv_heads, head_dim, dtype, device="cuda"):
                    self.kv = [
                        torch.empty((num_blocks, 2, PAGE_SIZE, kv_heads, head_dim), dtype=dtype, device=device)
                        for _ in range(num_layers)
                    ]
        """,
        "spill2/init.py": """
            import torch

            from spill2.cache import BlockCache
            from spill2.tier import SpillTier


            def init(device="cuda", host_device="cpu", num_blocks=64, host_blocks=128, num_layers=4,
                     kv_heads=4, head_dim=64, dtype=torch.bfloat16):
                cache = BlockCache(num_blocks=num_blocks, num_layers=num_layers, kv_heads=kv_heads,
                                   head_dim=head_dim, dtype=dtype, device=device)
                tier = SpillTier(num_blocks=host_blocks, num_layers=num_layers, kv_heads=kv_heads,
                                 head_dim=head_dim, dtype=dtype, device=host_device)
                return cache, tier
        """,
    },
}


@pytest.mark.parametrize("name", sorted(INHERITED_TREES))
def test_what_a_base_class_binds_is_not_taken_for_the_pools(tmp_path, capsys, name):
    write_tree(tmp_path, INHERITED_TREES[name])
    report = audit_json(tmp_path, capsys)
    assert report["findings"] == []  # correct trees: no false finding
    if name == "given":  # compared, with the block size the subclass was given
        assert report["summary"]["pairs_compared"] == 1


def test_a_call_passing_an_object_of_no_known_class_leaves_the_parameter_untyped(tmp_path):
    from helpers import find_class

    from auditor.evaluation.passed_classes import passed_class

    tree = dict(GEOMETRY_TREE)
    tree["geo/pools.py"] = tree["geo/pools.py"].replace("WIDTH", "shape.row")
    tree["geo/more.py"] = """
        from geo.pools import RowPool


        def third(size, shape):
            return RowPool(size, None, shape)
    """
    index = build_index(tmp_path, tree)
    parsed = [m.parsed for m in index.modules.values()]
    assert any(m.name == "geo.more" for m in index.modules.values())
    assert passed_class(index, parsed, {}, find_class(index, "RowPool"), "shape", 2) is None
