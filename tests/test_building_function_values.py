"""What the function building two sibling pools gives their parameters.

Two pools one function builds side by side (pairing/siblings.py, composed.py) take their
configuration from that function's parameters. Where a pool's parameter has no default of its
own (`shards`), the building function's default (`def open_pools(shards=4)`) is what the code
builds with when its caller says nothing: it is used instead of samples, so a layout that
disagrees only at some values of it is reported at the value the code gives. A function whose
parameter holds one number, flag, dtype or `None` (`page_size: int = 1`) is run with that value,
not with a stand-in object. Each tree is audited with no configuration and checked against its
own tensors on torch's meta device.
"""

from __future__ import annotations

import pytest
from helpers import audit_json, built_by_the_tree, one_pair_verdict, write_tree

from auditor.cli import main

PRIMARY = """
    import torch


    class ShardKV:
        def __init__(self, depth, heads, width, shards, slots, dtype=torch.bfloat16, device="cuda"):
            self.depth = depth
            self.slots = slots
            per_shard = heads // shards
            self.keys = [torch.empty((slots, per_shard, width), dtype=dtype, device=device)
                         for _ in range(depth)]
            self.vals = [torch.empty((slots, per_shard, width), dtype=dtype, device=device)
                         for _ in range(depth)]
"""

EGRESS = """
    import torch


    class EgressBuffer:
        def __init__(self, depth, heads, width, shards, slots, dtype=torch.bfloat16, device="cpu"):
            self.depth = depth
            self.slots = slots
            key_heads = heads // shards
            val_heads = VAL_HEADS
            self.keys = [torch.empty((slots, key_heads, width), dtype=dtype, device=device)
                         for _ in range(depth)]
            self.vals = [torch.empty((slots, val_heads, width), dtype=dtype, device=device)
                         for _ in range(depth)]
"""

OPEN = """
    import torch

    from .egress import EgressBuffer
    from .primary import ShardKV


    def open_pools(depth=2, heads=8, width=64, SHARDS, slots=512, egress_slots=128,
                   dtype=torch.bfloat16, device="cuda", egress_device="cpu"):
        kv = ShardKV(depth, heads, width, shards, slots, dtype=dtype, device=device)
        out = EgressBuffer(depth, heads, width, shards, egress_slots, dtype=dtype,
                           device=egress_device)
        return kv, out
"""


def _write(tmp_path, val_heads: str, shards: str) -> None:
    opening = OPEN.replace("SHARDS", shards)
    if "=" not in shards:  # a parameter with no default goes before those with one
        opening = opening.replace(
            "depth=2, heads=8, width=64, " + shards, shards + ", depth=2, heads=8, width=64"
        )
    write_tree(
        tmp_path,
        {
            "relay/__init__.py": "",
            "relay/primary.py": PRIMARY,
            "relay/egress.py": EGRESS.replace("VAL_HEADS", val_heads),
            "relay/open.py": opening,
        },
    )


def _per_token_layer(pool, buffers) -> int:
    return sum(t.nbytes for t in buffers) // (pool.slots * pool.depth)


@pytest.mark.parametrize(
    "val_heads, bug",
    [("heads // shards", False), ("heads", True)],  # V unsharded on the wire
)
def test_a_free_parameter_takes_the_building_functions_default(
    tmp_path, capsys, monkeypatch, val_heads, bug
):
    _write(tmp_path, val_heads, "shards=4")
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA001", "vals")} if bug else set())
    assert report["exit"] == (1 if bug else 0)
    if bug:
        finding = report["findings"][0]
        assert "1024 B/token/layer vs 256 B/token/layer" in finding["message"]
        note = finding["pairing"]
        assert "shards=4" in note and "open_pools()'s defaults" in note
    # the oracle: the tree's own function at its defaults, on the meta device
    kv, out = built_by_the_tree(
        tmp_path, monkeypatch, "relay", "open", "open_pools", device="meta", egress_device="meta"
    )
    assert _per_token_layer(kv, kv.keys) == _per_token_layer(out, out.keys) == 256
    assert _per_token_layer(out, out.vals) == (1024 if bug else 256)
    assert _per_token_layer(kv, kv.vals) == 256


def test_with_no_default_anywhere_the_parameter_stays_unresolved(tmp_path, capsys):
    """Unknown is not zero: with `shards` given by no one, the unsharded V depends on it."""
    _write(tmp_path, "heads", "shards")
    report = audit_json(tmp_path, capsys)
    assert report["findings"] == [] and report["exit"] == 0
    assert report["summary"]["unresolved"] == 2  # V at two dtype widths
    assert main([str(tmp_path), "--no-cache", "--isolated", "--show-unresolved"]) == 0
    shown = capsys.readouterr().out
    # sampled at values that divide its 8 heads (a larger sample would leave 0 heads, and
    # zero bytes on both sides would seem to agree)
    assert "ShardKV.vals: bytes per token per layer depend on shards" in shown
    assert "(1024 B at shards=1, 512 B at shards=2)" in shown


COMPOSED_POOL = """
    from typing import Optional

    import torch


    class SlotKV:
        def __init__(self, size, page_size, dtype, heads, head_dim, layers, device,
                     v_head_dim: Optional[int] = None):
            self.size = size
            self.layers = layers
            self.v_head_dim = head_dim if v_head_dim is None else v_head_dim
            rows = size + page_size
            self.k = [torch.empty((rows, heads, head_dim), dtype=dtype, device=device)
                      for _ in range(layers)]
            self.v = [torch.empty((rows, heads, self.v_head_dim), dtype=dtype, device=device)
                      for _ in range(layers)]
"""

COMPOSED_MIRROR = """
    import torch


    class PinnedMirror:
        def __init__(self, tokens, heads, head_dim, v_head_dim, layers, dtype, device="cpu"):
            self.tokens = tokens
            self.layers = layers
            self.k = [torch.empty((tokens, heads, head_dim), dtype=dtype, device=device)
                      for _ in range(layers)]
            self.v = [torch.empty((tokens, heads, V_WIDTH), dtype=dtype, device=device)
                      for _ in range(layers)]
"""

COMPOSED_SETUP = """
    import torch

    from .mirror import PinnedMirror
    from .pool import SlotKV


    def make(size: int = 1024, page_size: int = 1, dtype: torch.dtype = torch.float16,
             heads: int = 4, head_dim: int = 64, v_head_dim=None, layers: int = 2,
             device: str = "cuda", mirror_device: str = "cpu"):
        pool = SlotKV(size, page_size, dtype, heads, head_dim, layers, device,
                      v_head_dim=v_head_dim)
        mirror = PinnedMirror(
            tokens=size + page_size,
            heads=heads,
            head_dim=head_dim,
            v_head_dim=pool.v_head_dim,
            layers=layers,
            dtype=dtype,
            device=mirror_device,
        )
        return pool, mirror
"""


@pytest.mark.parametrize("v_width, bug", [("v_head_dim", False), ("head_dim * 2", True)])
def test_a_composed_run_gives_plain_parameters_their_values(
    tmp_path, capsys, monkeypatch, v_width, bug
):
    """`page_size: int = 1`, a dtype and `v_head_dim=None` are values, not stand-in objects:
    `size + page_size` is a number and the pair is compared."""
    write_tree(
        tmp_path,
        {
            "slots/__init__.py": "",
            "slots/pool.py": COMPOSED_POOL,
            "slots/mirror.py": COMPOSED_MIRROR.replace("V_WIDTH", v_width),
            "slots/setup.py": COMPOSED_SETUP,
        },
    )
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA001", "v")} if bug else set())
    pool, mirror = built_by_the_tree(
        tmp_path, monkeypatch, "slots", "setup", "make", device="meta", mirror_device="meta"
    )
    per_pool = sum(t.nbytes for t in pool.v) // ((pool.size + 1) * pool.layers)
    per_mirror = sum(t.nbytes for t in mirror.v) // (mirror.tokens * mirror.layers)
    assert (per_pool != per_mirror) is bug
