"""Pools whose layer count is read off an object their constructor takes (`cfg.num_layers`)
are not audited yet (only counts passed as constructor parameters are followed): they are
named, so that "no device pool found" does not hide them, in the notice, `--show-pairs` and
the JSON pairs."""

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


@pytest.mark.parametrize(
    ("kind", "path"), [("listed", "self.cfg.num_layers"), ("slab", "cfg.num_layers")]
)
def test_a_pool_counted_off_an_object_is_named_not_skipped(tmp_path, capsys, kind, path):
    write_tree(tmp_path, {"kv/__init__.py": "", "kv/config.py": CONFIG, "kv/gpu.py": POOLS[kind]})
    assert main(["--isolated", "--no-cache", "--show-pairs", str(tmp_path / "kv")]) == 0
    captured = capsys.readouterr()
    assert "no device pool found" in captured.err
    assert f"1 class not audited: GpuKVCache (per layer over {path})" in captured.err
    assert f"not audited: GpuKVCache ({tmp_path / 'kv' / 'gpu.py'}:" in captured.out
    assert f"allocates per layer over {path}, a count read off an object" in captured.out

    main(["--isolated", "--no-cache", "--output-format", "json", "--show-pairs", str(tmp_path)])
    document = json.loads(capsys.readouterr().out)
    [item] = [i for i in document["pairs"] if i["code"] == "NOT-AUDITED"]
    assert item["class"] == "GpuKVCache" and item["path"].endswith("gpu.py")
    assert "not audited: GpuKVCache" in document["summary"]["notice"]


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
