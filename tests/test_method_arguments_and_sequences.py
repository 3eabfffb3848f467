"""Pools whose buffers are made by their own methods, and caches of whole sequences.

- a pool allocating in a method it calls with what its constructor computed (`self._reserve(
  self.gpu_pages, arch, device)`, the method's loop appending per layer): the method's
  parameters are what the call passes;
- a tier carving one flat byte arena into per-layer views, each made by a method that assigns
  locals and returns the view (`part = self._arena[a:b]`, `return part.view(dtype).view(...)`):
  read where it is called, as a method only returning an allocation is;
- a cache of whole sequences (`(batch_size, heads, max_context_len, head_dim)` per layer, the
  counts read off a config object) with a mirror that keeps no count of its own: per token, the
  mirror's rows being its device's sequences.

Each tree is audited with no configuration; the buggy and fixed forms are checked against
their own tensors on torch's meta device.
"""

from __future__ import annotations

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


def _per_token_layer(buffers, tokens: int) -> int:
    return sum(t.nbytes for t in buffers) // (tokens * len(buffers))


ARENA_TREE = {
    "tierkv/__init__.py": "",
    "tierkv/arena.py": """
        import torch


        class ArenaTier:
            def __init__(self, arch, tiers, device="cpu"):
                self.page_size = tiers.page_size
                self.cpu_pages = tiers.cpu_pages
                self.n_layers = arch.n_layers
                self.kv_heads = arch.kv_heads
                self.dtype = arch.dtype
                self.k_width = arch.head_width
                self.v_width = VALUE_WIDTH
                itemsize = torch.empty((), dtype=arch.dtype).element_size()
                self.k_bytes = self.cpu_pages * self.page_size * self.kv_heads * self.k_width * itemsize
                self.v_bytes = self.cpu_pages * self.page_size * self.kv_heads * self.v_width * itemsize
                self.layer_bytes = self.k_bytes + self.v_bytes
                self._arena = torch.empty(self.n_layers * self.layer_bytes, dtype=torch.uint8, device=device)
                self.keys = [self._key_view(i) for i in range(self.n_layers)]
                self.values = [self._value_view(i) for i in range(self.n_layers)]

            def _key_view(self, layer):
                start = layer * self.layer_bytes
                part = self._arena[start : start + self.k_bytes]
                return part.view(self.dtype).view(self.cpu_pages, self.page_size, self.kv_heads, self.k_width)

            def _value_view(self, layer):
                start = layer * self.layer_bytes + self.k_bytes
                part = self._arena[start : start + self.v_bytes]
                return part.view(self.dtype).view(self.cpu_pages, self.page_size, self.kv_heads, self.v_width)
    """,
    "tierkv/engine.py": """
        import torch


        class SlotEngine:
            def __init__(self, arch, tiers, device="cuda"):
                self.page_size = tiers.page_size
                self.gpu_pages = tiers.gpu_pages
                self.n_layers = arch.n_layers
                self.keys = []
                self.values = []
                self._reserve(self.gpu_pages, arch, device)

            def _reserve(self, pages, arch, device):
                for _ in range(self.n_layers):
                    self.keys.append(
                        torch.empty((pages, self.page_size, arch.kv_heads, arch.head_width), dtype=arch.dtype, device=device)
                    )
                    self.values.append(
                        torch.empty((pages, self.page_size, arch.kv_heads, arch.value_width), dtype=arch.dtype, device=device)
                    )
    """,
    "tierkv/settings.py": """
        from dataclasses import dataclass

        import torch


        @dataclass
        class ArchSettings:
            n_layers: int = 6
            kv_heads: int = 4
            head_width: int = 64
            value_width: int = 64
            dtype: torch.dtype = torch.float16


        @dataclass
        class TierSettings:
            page_size: int = 16
            gpu_pages: int = 64
            cpu_pages: int = 96
    """,
    "tierkv/setup.py": """
        from tierkv.arena import ArenaTier
        from tierkv.engine import SlotEngine
        from tierkv.settings import ArchSettings, TierSettings


        def create(arch=None, tiers=None, device="cuda", cpu_device="cpu"):
            arch = arch or ArchSettings()
            tiers = tiers or TierSettings()
            engine = SlotEngine(arch, tiers, device=device)
            tier = ArenaTier(arch, tiers, device=cpu_device)
            return engine, tier
    """,
}


@pytest.mark.parametrize(
    "value_width, head_width, bug",
    [("arch.value_width", 64, False), ("arch.head_width", 128, True)],
)
def test_a_method_given_counts_and_an_arena_carved_by_methods(
    tmp_path, capsys, monkeypatch, value_width, head_width, bug
):
    tree = dict(ARENA_TREE)
    tree["tierkv/arena.py"] = tree["tierkv/arena.py"].replace("VALUE_WIDTH", value_width)
    tree["tierkv/settings.py"] = tree["tierkv/settings.py"].replace(
        "head_width: int = 64", f"head_width: int = {head_width}"
    )
    write_tree(tmp_path, tree)
    report = audit_json(tmp_path, capsys)
    engine, tier = built_by_the_tree(
        tmp_path, monkeypatch, "tierkv", "setup", "create", device="meta", cpu_device="meta"
    )
    device_v = _per_token_layer(engine.values, engine.gpu_pages * engine.page_size)
    tier_v = _per_token_layer(tier.values, tier.cpu_pages * tier.page_size)
    assert device_v == 512 and tier_v == (1024 if bug else 512)
    assert _per_token_layer(engine.keys, engine.gpu_pages * engine.page_size) == head_width * 8
    if not bug:
        assert one_pair_verdict(report) == set()
        return
    assert {f["code"] for f in report["findings"]} == {"LA001"}
    assert finding_figures(report) == {"values": (tier_v, device_v)}


SEQUENCE_TREE = {
    "seqcache/__init__.py": "",
    "seqcache/boot.py": """
        from seqcache.config import RunConfig
        from seqcache.fixed import FixedShapeCache
        from seqcache.parked import ParkedCopy


        def boot(config=None, device="cuda", host_device="cpu"):
            config = config or RunConfig()
            cache = FixedShapeCache(config, device=device)
            return cache, ParkedCopy(config, cache, device=host_device)
    """,
    "seqcache/config.py": """
        from dataclasses import dataclass

        import torch


        @dataclass
        class RunConfig:
            batch_size: int = 2
            max_context_len: int = 256
            layers: int = 4
            kv_heads: int = 2
            head_dim: int = 64
            dtype: torch.dtype = torch.bfloat16
    """,
    "seqcache/fixed.py": """
        import torch

        from seqcache.config import RunConfig


        class FixedShapeCache:
            def __init__(self, config: RunConfig, device="cuda"):
                self.batch_size = config.batch_size
                self.max_context_len = config.max_context_len
                self.layers = config.layers
                shape = (self.batch_size, config.kv_heads, self.max_context_len, config.head_dim)
                self.k = [torch.zeros(shape, dtype=config.dtype, device=device) for _ in range(self.layers)]
                self.v = [torch.zeros(shape, dtype=config.dtype, device=device) for _ in range(self.layers)]
    """,
    "seqcache/parked.py": """
        import torch

        from seqcache.config import RunConfig
        from seqcache.fixed import FixedShapeCache


        class ParkedCopy:
            def __init__(self, config: RunConfig, device_pool: FixedShapeCache, device="cpu"):
                self.device_pool = device_pool
                shape = (config.batch_size, config.kv_heads, config.max_context_len, config.head_dim)
                self.k = [torch.zeros(shape, dtype=config.dtype, device=device) for _ in range(config.layers)]
                self.v = [torch.zeros(shape, dtype=V_DTYPE, device=device) for _ in range(config.layers)]
    """,
}


@pytest.mark.parametrize("v_dtype, bug", [("config.dtype", False), ("torch.float32", True)])
def test_a_cache_of_whole_sequences_and_a_mirror_keeping_no_count(
    tmp_path, capsys, monkeypatch, v_dtype, bug
):
    tree = dict(SEQUENCE_TREE)
    tree["seqcache/parked.py"] = tree["seqcache/parked.py"].replace("V_DTYPE", v_dtype)
    write_tree(tmp_path, tree)
    report = audit_json(tmp_path, capsys)
    cache, parked = built_by_the_tree(
        tmp_path, monkeypatch, "seqcache", "boot", "boot", device="meta", host_device="meta"
    )
    tokens = cache.batch_size * cache.max_context_len
    device_v = _per_token_layer(cache.v, tokens)
    parked_v = _per_token_layer(parked.v, tokens)
    assert device_v == 256 and parked_v == (512 if bug else 256)
    assert _per_token_layer(parked.k, tokens) == _per_token_layer(cache.k, tokens) == 256
    if not bug:
        assert one_pair_verdict(report) == set()
        return
    assert {f["code"] for f in report["findings"]} == {"LA001"}
    assert finding_figures(report) == {"v": (parked_v, device_v)}
    message = report["findings"][0]["message"]
    assert "its device's max_context_len tokens each" in message


def test_sorted_is_modelled_for_numbers_and_text_only(tmp_path):
    """`sorted(layer_ids)` (0.5.21's sparse-index rows): numbers and text sort, also by a
    `key` giving numbers or text (session 43); numbers mixed with text leave the value
    unknown, never guessed."""
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                import torch


                class Pool:
                    def __init__(self, size, layer_ids):
                        self.slots = {int(l): i for i, l in enumerate(sorted(layer_ids))}
                        self.k = torch.empty((len(self.slots), size, 4))
                        self.down = sorted([3, 1, 2], reverse=True)
                        self.keyed = sorted([3, 1], key=abs)
                        self.mixed = sorted([1, "a"])
            """
        },
    )
    built = build(index, "Pool", {"size": 8}, kwargs={"layer_ids": [2, 0, 1]})
    assert built["slots"] == {0: 0, 1: 1, 2: 2} and built["k"].shape == (3, 8, 4)
    assert built["down"] == [3, 2, 1]
    assert built["keyed"] == [1, 3]
    assert is_unknown(built["mixed"])
