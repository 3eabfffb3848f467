"""Buffers allocated after construction, and a config field holding an enum member.

- pools whose constructors leave their buffers empty (`self.blob = None`, `self.blob = []`)
  and whose `allocate(self)` makes them, called by the code that builds both: run on the built
  pool before it is measured (evaluation/lazy.py);
- the device's page shape from a method choosing the order of the same dimensions by a layout
  enum (`if self.cfg.order is Order.HEADS_FIRST: return (...)`, `return (...)`), spliced after
  the layer axis (`(self.layers, *self._shape(width))`);
- a dataclass field defaulting to an enum member (`packing: Packing = Packing.FOUR`): explored
  at each member, so a host that hard-codes the four-bit width is reported at `Packing.EIGHT`.

The tree is audited with no configuration; both forms are checked against their own tensors on
torch's meta device, at each packing.
"""

from __future__ import annotations

import re

import pytest
from helpers import audit_json, built_by_the_tree, one_pair_verdict, write_tree

LAZY_TREE = {
    "lazykv/__init__.py": "",
    "lazykv/config.py": """
        import enum
        from dataclasses import dataclass


        class Packing(enum.Enum):
            FOUR = 4
            EIGHT = 8

            @property
            def bits(self):
                return self.value


        class Order(enum.Enum):
            HEADS_FIRST = "hnd"
            TOKENS_FIRST = "nhd"


        @dataclass
        class LazyConfig:
            layers: int = 8
            heads: int = 4
            dim: int = 128
            pages: int = 512
            page_len: int = 16
            packing: Packing = Packing.FOUR
            order: Order = Order.HEADS_FIRST
            host_ratio: int = 2
    """,
    "lazykv/device.py": """
        import torch

        from lazykv.config import LazyConfig, Order


        def packed(dim, packing):
            return dim * packing.bits // 8


        class LazyPagedCache:
            def __init__(self, cfg: LazyConfig, device="cuda"):
                self.cfg = cfg
                self.device = device
                self.layers = cfg.layers
                self.pages = cfg.pages
                self.page_len = cfg.page_len
                self.blob = None

            @property
            def token_capacity(self):
                return self.pages * self.page_len

            def _shape(self, width):
                if self.cfg.order is Order.HEADS_FIRST:
                    return (self.pages, self.cfg.heads, self.page_len, width)
                return (self.pages, self.page_len, self.cfg.heads, width)

            def allocate(self):
                if self.blob is not None:
                    return self
                width = packed(self.cfg.dim, self.cfg.packing)
                self.blob = torch.zeros((self.layers, *self._shape(width)), dtype=torch.uint8, device=self.device)
                return self
    """,
    "lazykv/host.py": """
        import torch

        from lazykv.config import LazyConfig


        class LazyHost:
            def __init__(self, cfg: LazyConfig, rows: int, device="cpu"):
                self.cfg = cfg
                self.rows = rows
                self.layers = cfg.layers
                self.device = device
                self.blob = []

            def allocate(self):
                width = HOST_WIDTH
                for _ in range(self.layers):
                    self.blob.append(torch.empty((self.rows, self.cfg.heads, width), dtype=torch.uint8, device=self.device))
                return self
    """,
    "lazykv/start.py": """
        from lazykv.config import LazyConfig
        from lazykv.device import LazyPagedCache
        from lazykv.host import LazyHost


        def start(device="cuda", cfg=None):
            cfg = cfg or LazyConfig()
            cache = LazyPagedCache(cfg, device=device)
            host = LazyHost(cfg, rows=cache.token_capacity * cfg.host_ratio, device=device)
            cache.allocate()
            host.allocate()
            return cache, host
    """,
}


def _figures(cache, host) -> tuple[int, int]:
    device = cache.blob.nbytes // (cache.pages * cache.page_len * cache.layers)
    other = sum(t.nbytes for t in host.blob) // (host.rows * len(host.blob))
    return other, device


@pytest.mark.parametrize(
    "host_width, bug",
    [("self.cfg.dim * self.cfg.packing.bits // 8", False), ("self.cfg.dim // 2", True)],
)
def test_lazily_allocated_pools_with_a_packing_enum_field(
    tmp_path, capsys, monkeypatch, host_width, bug
):
    tree = dict(LAZY_TREE)
    tree["lazykv/host.py"] = tree["lazykv/host.py"].replace("HOST_WIDTH", host_width)
    write_tree(tmp_path, tree)
    report = audit_json(tmp_path, capsys)
    cache, host = built_by_the_tree(
        tmp_path, monkeypatch, "lazykv", "start", "start", device="meta"
    )
    assert _figures(cache, host) == (256, 256)  # the default packing: four bits, both sides
    config = importlib_config(tmp_path, monkeypatch)
    eight = config.LazyConfig(packing=config.Packing.EIGHT)
    cache, host = built_by_the_tree(
        tmp_path, monkeypatch, "lazykv", "start", "start", device="meta", cfg=eight
    )
    assert _figures(cache, host) == ((256 if bug else 512), 512)
    if not bug:
        assert one_pair_verdict(report) == set()
        return
    (finding,) = report["findings"]
    assert finding["code"] == "LA001" and finding["message"].startswith("blob:")
    numbers = re.findall(r"(\d+) B/token/layer vs (\d+) B/token/layer", finding["message"])
    assert tuple(int(n) for n in numbers[0]) == (256, 512)
    assert "Packing.EIGHT" in finding["message"]


def importlib_config(root, monkeypatch):
    """The tree's config module, imported from the tree (for a config built by the test)."""
    import importlib
    import sys

    monkeypatch.syspath_prepend(str(root))
    for name in [n for n in sys.modules if n == "lazykv" or n.startswith("lazykv.")]:
        monkeypatch.delitem(sys.modules, name)
    return importlib.import_module("lazykv.config")
