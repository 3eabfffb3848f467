"""A layer count whose name says nothing (`groups`: one allocation group per transformer
layer) that the class itself names for layers (`num_layers` returns it), and head counts kept
as a tuple field unpacked where they are used (`heads, head_size = layout.kv_shape`): the pool
is recognised by the name its class gives the count (behaviour.Facts.layer_named), the tuple
sampled as one (Facts.unpacked), the pair audited with no configuration and checked against
the tree's own tensors on the meta device."""

from __future__ import annotations

import pytest
from helpers import audit_json, built_by_the_tree, one_pair_verdict, write_tree

LAYOUT = """
    from dataclasses import dataclass

    import torch


    @dataclass(frozen=True)
    class CacheLayout:
        groups: int  # one allocation group per transformer layer
        max_blocks: int
        block_size: int
        kv_shape: tuple  # (kv_heads_per_rank, head_size)
        dtype: torch.dtype = torch.bfloat16
"""

STORES = """
    import torch

    from .layout import CacheLayout


    class PagedStore:
        def __init__(self, layout: CacheLayout, device="cuda"):
            self.layout = layout
            self.block_size = layout.block_size
            heads, head_size = layout.kv_shape
            shape = (layout.groups, layout.max_blocks, layout.block_size, heads, head_size)
            self.k = torch.zeros(shape, dtype=layout.dtype, device=device)
            self.v = torch.zeros(shape, dtype=layout.dtype, device=device)

        @property
        def num_layers(self) -> int:
            return self.layout.groups


    class SwapStore:
        def __init__(self, store: PagedStore, swap_blocks: int, device="cpu"):
            heads, head_size = store.layout.kv_shape
            shape = (store.num_layers, swap_blocks, store.block_size, heads, head_size)
            self.k = torch.zeros(shape, dtype=store.layout.dtype, device=device)
            self.v = torch.zeros(shape, dtype=V_DTYPE, device=device)
"""


@pytest.mark.parametrize("v_dtype, bug", [("store.layout.dtype", False), ("torch.float32", True)])
def test_a_count_named_for_layers_by_its_class(tmp_path, capsys, monkeypatch, v_dtype, bug):
    write_tree(
        tmp_path,
        {
            "swapkv/__init__.py": "",
            "swapkv/layout.py": LAYOUT,
            "swapkv/stores.py": STORES.replace("V_DTYPE", v_dtype),
        },
    )
    report = audit_json(tmp_path, capsys)
    assert (report["summary"]["device_pools"], report["summary"]["host_pools"]) == (1, 1)
    assert one_pair_verdict(report) == ({("LA001", "v")} if bug else set())

    # the oracle: the tree's own classes on the meta device
    def build(name: str, **kwargs):
        return built_by_the_tree(
            tmp_path, monkeypatch, "swapkv", name.split(".")[0], name.split(".")[1], **kwargs
        )

    shape = build("layout.CacheLayout", groups=4, max_blocks=8, block_size=16, kv_shape=(2, 64))
    gpu = build("stores.PagedStore", layout=shape, device="meta")
    swap = build("stores.SwapStore", store=gpu, swap_blocks=32, device="meta")
    per_device = gpu.v.nbytes // (4 * 8 * 16)
    per_swap = swap.v.nbytes // (4 * 32 * 16)
    assert (per_device != per_swap) is bug
    if bug:
        assert "host and device disagree" in report["findings"][0]["message"]
