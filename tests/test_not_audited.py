"""Pools whose layer count is read off an object their constructor takes (`cfg.num_layers`)
are audited, the object's attributes read as parameters; a class allocating per layer over
such a count that this still does not make a pool (no token count) is named, so that "no
device pool found" does not hide it, in the notice, `--show-pairs` and the JSON pairs."""

from __future__ import annotations

import json

import pytest
from helpers import write_tree

from auditor.cli import main

CONFIG = """
    from dataclasses import dataclass

    import torch

    @dataclass
    class CacheConfig:
        num_layers: int
        num_kv_heads: int
        head_dim: int
        dtype: torch.dtype = torch.bfloat16
"""

POOLS = {
    # a per-layer list over the object's count
    "listed": """
        import torch
        from kv.config import CacheConfig

        class GpuKVCache:
            def __init__(self, cfg: CacheConfig, num_tokens: int):
                self.cfg = cfg
                self.k = [
                    torch.empty((num_tokens, cfg.num_kv_heads, cfg.head_dim), dtype=cfg.dtype)
                    for _ in range(self.cfg.num_layers)
                ]
    """,
    # one slab with a leading layer dimension read off the object
    "slab": """
        import torch

        class GpuKVCache:
            def __init__(self, cfg, num_tokens: int):
                self.kv = torch.empty(
                    (cfg.num_layers, 2, num_tokens, cfg.head_dim), dtype=torch.bfloat16
                )
    """,
}


@pytest.mark.parametrize("kind", ["listed", "slab"])
def test_a_pool_counted_off_a_config_object_is_audited(tmp_path, capsys, kind):
    """`range(self.cfg.num_layers)`, a leading `cfg.num_layers`: the object's attributes are
    read as parameters (behaviour.objects_as_parameters), so the class is a device pool with
    `cfg.num_layers` as its layer count and `num_tokens` as its token count."""
    write_tree(tmp_path, {"kv/__init__.py": "", "kv/config.py": CONFIG, "kv/gpu.py": POOLS[kind]})
    assert main(["--isolated", "--no-cache", "--show-pools", str(tmp_path / "kv")]) == 0
    captured = capsys.readouterr()
    assert "not audited" not in captured.out + captured.err
    assert "1 device pools" in captured.err
    # the object's attributes are dimensions under its class (typed) or `config` (untyped)
    dimension = {"listed": "CacheConfig.head_dim=", "slab": "config.head_dim="}[kind]
    assert "GpuKVCache" in captured.out and dimension in captured.out, captured.out


GATHERER = """
    import torch

    class LayerStats:  # per layer over an object's count, but no token count: not a pool
        def __init__(self, meta, rank: int):
            self.rank = rank
            self.topk = torch.zeros((meta.num_layers, 4096, 8), dtype=torch.int32)
"""


def test_a_class_counted_off_an_object_that_is_no_pool_is_named_not_skipped(tmp_path, capsys):
    path = "meta.num_layers"
    write_tree(tmp_path, {"kv/__init__.py": "", "kv/stats.py": GATHERER})
    assert main(["--isolated", "--no-cache", "--show-pairs", str(tmp_path / "kv")]) == 0
    captured = capsys.readouterr()
    assert "no device pool found" in captured.err
    assert f"1 class not audited: LayerStats (per layer over {path})" in captured.err
    assert f"not audited: LayerStats ({tmp_path / 'kv' / 'stats.py'}:" in captured.out
    assert f"allocates per layer over {path}, a count read off an object" in captured.out

    main(["--isolated", "--no-cache", "--output-format", "json", "--show-pairs", str(tmp_path)])
    document = json.loads(capsys.readouterr().out)
    [item] = [i for i in document["pairs"] if i["code"] == "NOT-AUDITED"]
    assert item["class"] == "LayerStats" and item["path"].endswith("stats.py")
    assert "not audited: LayerStats" in document["summary"]["notice"]


def test_counts_passed_as_parameters_pool_helpers_or_loops_allocating_nothing_are_not_named(
    tmp_path, capsys
):
    write_tree(
        tmp_path,
        {
            "kv/__init__.py": "",
            "kv/gpu.py": """
                import torch

                class Pool:  # a pool the audit follows: counts are parameters
                    def __init__(self, size: int, num_layers: int):
                        self.num_layers = num_layers
                        self.k = [torch.empty((size, 64)) for _ in range(num_layers)]

                class KeyCache:  # a helper of a pool: the pool's evaluation measures it
                    def __init__(self, pool: Pool):
                        self.buffer = [torch.empty((8, 4)) for _ in range(pool.num_layers)]

                class SplitKeyCache(KeyCache):  # a helper's subclass, annotated otherwise
                    def __init__(self, pool: "SplitPool"):
                        super().__init__(pool)
                        self.extra = [torch.empty((8, 4)) for _ in range(pool.num_layers)]

                class Walker:  # loops over an object's count, allocates nothing
                    def __init__(self, cfg):
                        self.names = [str(i) for i in range(cfg.num_layers)]
                        self.scratch = torch.empty((4,))
            """,
        },
    )
    main(["--isolated", "--no-cache", "--show-pairs", str(tmp_path / "kv")])
    captured = capsys.readouterr()
    assert "not audited" not in captured.out + captured.err


FLAGGED = {
    "kv/__init__.py": "",
    "kv/gpu.py": """
        import torch

        class GpuCache:
            def __init__(self, cfg, num_tokens: int):
                self.k = [
                    torch.empty((num_tokens, cfg.head_dim), dtype=torch.bfloat16)
                    for _ in range(cfg.num_layers)
                ]
                if cfg.quantized:  # a flag of the config object gating a buffer
                    self.k_scale = [
                        torch.empty((num_tokens, 1), dtype=torch.float32)
                        for _ in range(cfg.num_layers)
                    ]
    """,
    "kv/cpu.py": """
        import torch
        from kv.gpu import GpuCache

        class CpuCache:
            def __init__(self, cfg, gpu: GpuCache, num_tokens: int):
                self.k = torch.empty(
                    (cfg.num_layers, num_tokens, cfg.head_dim), dtype=torch.bfloat16
                )
    """,
}


def test_a_config_objects_flag_is_explored_and_named(tmp_path, capsys):
    """`if cfg.quantized:` around a buffer: both truths are built; the host mirrors no scales,
    which is reported at config.quantized=True only (an untyped object: `config`), and its K rows agree at every point."""
    write_tree(tmp_path, FLAGGED)
    assert main(["--isolated", "--no-cache", str(tmp_path / "kv")]) == 1
    captured = capsys.readouterr()
    assert "LA003 k_scale" in captured.out and "at config.quantized=True" in captured.out, captured
    assert "LA001" not in captured.out
    assert "0 unresolved" in captured.err and "1 of 1 pairs compared" in captured.err
