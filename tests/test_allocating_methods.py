"""Buffers a pool's own method allocates and returns, unpacked into several attributes
(`self.keys, self.values = self._allocate(n_layers)`, each a list appended per layer): each
attribute is an allocation of the pool (behaviour.read_facts), so two such pools built side by
side hold buffers of the same names and are compared as siblings (siblings._storages_meet),
with no configuration; checked on the meta device."""

from __future__ import annotations

import pytest
from helpers import audit_json, built_by_the_tree, one_pair_verdict, write_tree

CACHES = """
    import torch


    class SlotCache:
        def __init__(self, num_slots: int, n_layers: int, kv_heads: int = 8, head_dim: int = 128,
                     device="cuda"):
            self.num_slots, self.kv_heads, self.head_dim = num_slots, kv_heads, head_dim
            self.device = device
            self.keys, self.values = self._allocate(n_layers)

        def _allocate(self, n_layers):
            keys, values = [], []
            for _ in range(n_layers):
                keys.append(torch.zeros((self.num_slots, self.kv_heads, self.head_dim),
                                        dtype=torch.float16, device=self.device))
                values.append(torch.zeros((self.num_slots, self.kv_heads, self.head_dim),
                                          dtype=torch.float16, device=self.device))
            return keys, values


    class SpillCache:
        def __init__(self, num_slots: int, n_layers: int, kv_heads: int = 8, head_dim: int = 128,
                     device="cpu"):
            self.num_slots, self.kv_heads, self.head_dim = num_slots, kv_heads, head_dim
            self.device = device
            self.keys, self.values = self._make(n_layers)

        def _make(self, n_layers):
            shape = (self.num_slots, self.kv_heads, self.head_dim)
            keys = [torch.empty(shape, dtype=torch.float16, device=self.device)
                    for _ in range(n_layers)]
            values = [torch.empty(shape, dtype=V_DTYPE, device=self.device)
                      for _ in range(n_layers)]
            return keys, values


    def start(slots=4096, spill_slots=1024, n_layers=4, kv_heads=8, head_dim=128,
              device="cuda", spill_device="cpu"):
        hot = SlotCache(slots, n_layers, kv_heads, head_dim, device=device)
        cold = SpillCache(spill_slots, n_layers, kv_heads, head_dim, device=spill_device)
        return hot, cold
"""


@pytest.mark.parametrize(
    "v_dtype, bug", [("torch.float16", False), ("torch.bfloat16", False), ("torch.float32", True)]
)
def test_buffers_unpacked_from_an_own_method(tmp_path, capsys, monkeypatch, v_dtype, bug):
    write_tree(tmp_path, {"sc/__init__.py": "", "sc/caches.py": CACHES.replace("V_DTYPE", v_dtype)})
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA001", "values")} if bug else set())
    hot, cold = built_by_the_tree(
        tmp_path, monkeypatch, "sc", "caches", "start", device="meta", spill_device="meta"
    )
    hot_row, cold_row = hot.values[0].nbytes // 4096, cold.values[0].nbytes // 1024
    assert (hot_row != cold_row) is bug
