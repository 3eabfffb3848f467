"""Idioms of unseen trees (probe37), each a tree of its own names, buggy and fixed, checked
against the tree's own construction on the meta device.

- A page-major tier (`torch.empty((num_pages, num_layers, *row))`, its row a local tuple)
  beside a device built from the same dataclass configs: the pre-filter keeps an allocation
  whose layer dimension is second, and a starred local shape is spliced into its dimensions.
- A device whose per-layer shape divides its heads by a parallel degree (`world_size`): a
  parallel degree counts no tokens (its blocks do), and `mode: str` is one value, not a
  config object.
- Device classes picked from a module-level dict by a variable (`CACHE_KINDS[kind](...)`),
  allocating per layer in an own method the constructor calls in a layer loop, beside a tier
  holding a batch of sequences in one dimension (`self.max_rows = batch * seq_len`).
"""

from __future__ import annotations

import pytest
from helpers import audit_json, built_by_the_tree, finding_figures, one_pair_verdict, write_tree

PAGE_MAJOR = {
    "latent/__init__.py": "",
    "latent/specs.py": """
        from dataclasses import dataclass

        import torch

        DTYPES = {"bf16": torch.bfloat16, "fp8": torch.float8_e4m3fn}


        @dataclass(frozen=True)
        class ArenaSpec:
            depth: int = 12
            lora_rank: int = 256
            rope_dim: int = 32

            @property
            def row_width(self) -> int:
                return self.lora_rank + self.rope_dim


        @dataclass
        class TierSettings:
            page_size: int = 16
            num_pages: int = 512
            cold_pages: int = 128
            kv_dtype: str = "fp8"
    """,
    "latent/arena.py": """
        import torch

        from latent.specs import DTYPES, ArenaSpec, TierSettings


        class LatentArena:
            def __init__(self, spec: ArenaSpec, cfg: TierSettings, device="cuda"):
                self.depth = spec.depth
                self.page_size = cfg.page_size
                self.num_pages = cfg.num_pages
                self.pages = torch.zeros(
                    (self.depth, self.num_pages, self.page_size, spec.row_width),
                    dtype=DTYPES[cfg.kv_dtype], device=device)
    """,
    "latent/cold.py": """
        import torch

        from latent.specs import DTYPES, ArenaSpec, TierSettings


        class ColdTier:
            def __init__(self, spec: ArenaSpec, cfg: TierSettings, device="cpu"):
                self.page_size = cfg.page_size
                self.num_pages = cfg.cold_pages
                self.depth = spec.depth
                row = (self.page_size, spec.lora_rank + spec.rope_dim)
                self.pages = torch.empty((self.num_pages, self.depth, *row),
                                         dtype=COLD_DTYPE, device=device)
    """,
    "latent/engine.py": """
        from latent.arena import LatentArena
        from latent.cold import ColdTier
        from latent.specs import ArenaSpec, TierSettings


        def make_state(device="cuda", spec=None, cfg=None):
            spec = spec or ArenaSpec()
            cfg = cfg or TierSettings()
            arena = LatentArena(spec, cfg, device=device)
            cold = ColdTier(spec, cfg, device="meta" if device == "meta" else "cpu")
            return arena, cold
    """,
}


@pytest.mark.parametrize("dtype, bug", [("torch.bfloat16", True), ("DTYPES[cfg.kv_dtype]", False)])
def test_a_page_major_tier_of_a_starred_row(tmp_path, capsys, monkeypatch, dtype, bug):
    write_tree(tmp_path, {p: s.replace("COLD_DTYPE", dtype) for p, s in PAGE_MAJOR.items()})
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA001", "pages")} if bug else set())
    arena, cold = built_by_the_tree(
        tmp_path, monkeypatch, "latent", "engine", "make_state", device="meta"
    )
    device = arena.pages.nbytes // (arena.depth * arena.num_pages * arena.page_size)
    host = cold.pages.nbytes // (cold.depth * cold.num_pages * cold.page_size)
    assert (host != device) is bug
    if bug:  # at the configs' defaults: fp8 on the device, bf16 in the tier
        assert finding_figures(report)["pages"] == (host, device)


SHARDED = {
    "shard/__init__.py": "",
    "shard/config.py": """
        from dataclasses import dataclass


        @dataclass
        class NetShape:
            n_layers: int = 8
            kv_heads: int = 8
            head_dim: int = 64


        @dataclass
        class StoreConfig:
            block_size: int = 32
            num_gpu_blocks: int = 256
            num_cpu_blocks: int = 64
            quant: int = 8
    """,
    "shard/gpu.py": """
        import torch

        from shard.config import NetShape, StoreConfig


        class BlockStore:
            def __init__(self, store: StoreConfig, net: NetShape, world_size: int = 1,
                         device="cuda"):
                if net.kv_heads % world_size:
                    raise ValueError("kv heads must split evenly")
                self.block_size = store.block_size
                self.n_layers = net.n_layers
                self.heads = net.kv_heads // world_size
                self.keys = []
                self.values = []
                self.key_params = []
                for _ in range(self.n_layers):
                    n = store.num_gpu_blocks
                    self.keys.append(torch.empty((n, *self.block_shape(net)), dtype=torch.int8,
                                                 device=device))
                    self.values.append(torch.empty((n, self.block_size, self.heads, net.head_dim),
                                                   dtype=torch.int8, device=device))
                    self.key_params.append(torch.empty((n, self.block_size, self.heads, 2),
                                                       dtype=torch.float16, device=device))

            def block_shape(self, net):
                return (self.block_size, self.heads, net.head_dim)
    """,
    "shard/swap.py": """
        import torch

        from shard.config import NetShape, StoreConfig


        class SwapStore:
            def __init__(self, store: StoreConfig, net: NetShape, world_size: int = 1,
                         mode: str = "int8", device="cpu"):
                self.mode = mode
                self.block_size = store.block_size
                self.n_layers = net.n_layers
                heads = net.kv_heads // world_size
                self.keys = [
                    torch.empty((store.num_cpu_blocks, self.block_size, heads, net.head_dim),
                                dtype=torch.int8, device=device)
                    for _ in range(self.n_layers)
                ]
                self.values = [
                    torch.empty((store.num_cpu_blocks, self.block_size, heads, net.head_dim),
                                dtype=torch.int8, device=device)
                    for _ in range(self.n_layers)
                ]
                self.key_params = [
                    torch.empty((store.num_cpu_blocks, self.block_size, heads, PARAMS),
                                dtype=torch.float16, device=device)
                    for _ in range(self.n_layers)
                ]
    """,
    "shard/boot.py": """
        from shard.config import NetShape, StoreConfig
        from shard.gpu import BlockStore
        from shard.swap import SwapStore


        def boot(device="cuda", world_size=2, net=None, store=None):
            net = net or NetShape()
            store = store or StoreConfig()
            gpu = BlockStore(store, net, world_size=world_size, device=device)
            swap = SwapStore(store, net, world_size=world_size,
                             device="meta" if device == "meta" else "cpu")
            return gpu, swap
    """,
}


@pytest.mark.parametrize("params, bug", [("1", True), ("2", False)])
def test_heads_over_a_parallel_degree_count_no_tokens(tmp_path, capsys, monkeypatch, params, bug):
    write_tree(tmp_path, {p: s.replace("PARAMS", params) for p, s in SHARDED.items()})
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA001", "key_params")} if bug else set())
    gpu, swap = built_by_the_tree(tmp_path, monkeypatch, "shard", "boot", "boot", device="meta")

    def per_token(pool, name, blocks):
        return sum(t.nbytes for t in getattr(pool, name)) // (
            blocks * pool.block_size * pool.n_layers
        )

    for name in ("keys", "values", "key_params"):
        device, host = per_token(gpu, name, 256), per_token(swap, name, 64)
        assert (host != device) is (bug and name == "key_params")
    if bug:  # one fp16 parameter per head on the swap side, two on the device: the figures
        # are at the config objects' sampled head counts, their ratio the code's
        host, device = finding_figures(report)["key_params"]
        assert host * per_token(gpu, "key_params", 256) == device * per_token(
            swap, "key_params", 64
        )
        assert host != device


TABLED = {
    "rows/__init__.py": "",
    "rows/net.py": """
        from dataclasses import dataclass


        @dataclass
        class Net:
            layers: int = 6
            kv_heads: int = 4
            head_dim: int = 64
            seq_len: int = 512
    """,
    "rows/caches.py": """
        import torch

        from rows.net import Net


        class PlainCache:
            store_dtype = torch.half

            def __init__(self, net: Net, batch: int = 1, seq_len: int = -1, device="cuda"):
                self.batch = batch
                self.seq_len = seq_len if seq_len != -1 else net.seq_len
                self.heads = net.kv_heads
                self.head_dim = net.head_dim
                self.keys = []
                self.scales = []
                for _ in range(net.layers):
                    self.add_layer(device)

            def width(self) -> int:
                return self.head_dim

            def add_layer(self, device) -> None:
                shape = (self.batch, self.seq_len, self.heads, self.width())
                self.keys.append(torch.zeros(shape, dtype=self.store_dtype, device=device))


        class GroupedCache(PlainCache):
            store_dtype = torch.uint8
            group = 32

            def width(self) -> int:
                return self.head_dim // 2

            def add_layer(self, device) -> None:
                super().add_layer(device)
                shape = (self.batch, self.seq_len, self.heads, self.head_dim // self.group)
                self.scales.append(torch.zeros(shape, dtype=torch.half, device=device))
    """,
    "rows/parking.py": """
        import torch

        from rows.net import Net

        BITS = {"plain": 16, "grouped": 4}


        class ParkingArea:
            def __init__(self, net: Net, kind: str, batch: int, seq_len: int, device="cpu"):
                self.layers = net.layers
                self.max_rows = batch * seq_len
                width = net.head_dim * BITS[kind] // 8
                self.keys = torch.empty((self.layers, self.max_rows, net.kv_heads, width),
                                        dtype=torch.uint8, device=device)
                self.scales = None
                if kind == "grouped":
                    self.scales = torch.empty(
                        (self.layers, self.max_rows, net.kv_heads, net.head_dim // GROUP),
                        dtype=torch.half, device=device)
    """,
    "rows/factory.py": """
        from rows.caches import GroupedCache, PlainCache
        from rows.net import Net
        from rows.parking import ParkingArea

        CACHE_KINDS = {"plain": PlainCache, "grouped": GroupedCache}


        def make_pair(device="cuda", kind="grouped", batch=2, net=None):
            net = net or Net()
            cache = CACHE_KINDS[kind](net, batch=batch, device=device)
            parking = ParkingArea(net, kind, batch, cache.seq_len,
                                  device="meta" if device == "meta" else "cpu")
            return cache, parking
    """,
}


@pytest.mark.parametrize("group, bug", [("16", True), ("32", False)])
def test_classes_from_a_table_and_rows_of_sequences(tmp_path, capsys, monkeypatch, group, bug):
    write_tree(tmp_path, {p: s.replace("GROUP", group) for p, s in TABLED.items()})
    report = audit_json(tmp_path, capsys)
    summary = report["summary"]
    assert summary["pairs"] == summary["pairs_compared"] == 2  # one pair per class of the table
    found = {(f["code"], f["message"].split(":", 1)[0]) for f in report["findings"]}
    assert found == ({("LA001", "scales")} if bug else set())
    if bug:  # the grouped cache's pair only: the plain cache keeps no scales
        assert all("GroupedCache" in f["message"] for f in report["findings"])
    cache, parking = built_by_the_tree(
        tmp_path, monkeypatch, "rows", "factory", "make_pair", device="meta"
    )
    tokens = cache.batch * cache.seq_len
    for name in ("keys", "scales"):
        device = sum(t.nbytes for t in getattr(cache, name)) // (tokens * len(cache.keys))
        host = getattr(parking, name).nbytes // (parking.max_rows * parking.layers)
        assert (host != device) is (bug and name == "scales")


SHARD_NAMED = """
    import torch


    class ShardKVPool:
        def __init__(self, TOKENS: int, layer_num: int, head_num: int = 8, head_dim: int = 128):
            self.layer_num = layer_num
            self.k_buffer = [
                torch.empty((TOKENS, head_num, head_dim), dtype=torch.bfloat16)
                for _ in range(layer_num)
            ]


    class ShardHostPool:
        def __init__(self, device_pool: ShardKVPool, num_tokens: int, head_num: int = 8):
            self.layer_num = device_pool.layer_num
            self.k_buffer = torch.empty(
                (self.layer_num, num_tokens, head_num, 64), dtype=torch.bfloat16
            )
"""


@pytest.mark.parametrize("tokens", ["cp_len", "tp_tokens", "max_tokens_per_dp", "world_tokens"])
def test_a_token_count_named_with_a_parallel_word_still_counts_tokens(tmp_path, capsys, tokens):
    """Only a name that is a parallel degree (`tp_size`, `world_size`) counts no tokens: a
    token count of a parallel group (`cp_len`, `tp_tokens`) keeps its pool, and its host's
    own head size (64 against 128) is found."""
    write_tree(
        tmp_path, {"sp/__init__.py": "", "sp/pools.py": SHARD_NAMED.replace("TOKENS", tokens)}
    )
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == {("LA001", "k_buffer")}
    assert finding_figures(report)["k_buffer"] == (1024, 2048)
