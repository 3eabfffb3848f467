"""A model config the code gives as a mapping of its own, and a tier a byte budget sizes.

- A function building both pools whose config parameter defaults to a dict of the code's
  (`def boot(model_cfg=MODEL)`) hands both the same stand-in, which keeps that dict's keys and
  whole numbers: `"head_size" in model_cfg` is decided, `model_cfg.get("num_kv_heads", n_head)`
  of a key the dict lacks gives the fallback (LightLLM's looked-up-under-another-name head
  count), and `d_model // n_head` is the model's head size, not a ratio of samples drawn apart
  (site_run._default_mapping, environment.runtime_attribute). Counts the build varies stay the
  point's.
- A tier whose row count is bought by a byte budget that is not a count parameter
  (`spill_gib: float`) counts its rows by what it holds, not by a shard count the row size
  reads (behaviour._tokens_along), in chunks of the page size it keeps (`chunk_num` rows of
  `chunk_page_size` tokens: measure._IN_BLOCKS).
Checked against the tree's own construction on the meta device.
"""

from __future__ import annotations

import json

import pytest
from helpers import audit_json, built_by_the_tree, finding_figures, one_pair_verdict, write_tree

from auditor.cli import main

TREE = {
    "tier/__init__.py": "",
    "tier/slab.py": """
        import torch


        class TokenSlab:
            def __init__(self, capacity, dtype, kv_heads, head_size, num_layers, device="cuda"):
                self.capacity = capacity
                self.num_layers = num_layers
                self.buf = torch.empty(
                    (num_layers, capacity, 2 * kv_heads, head_size), dtype=dtype, device=device
                )
    """,
    "tier/spill.py": """
        import torch


        class SpillStore:
            def __init__(self, model_cfg: dict, shards: int, spill_gib: float, chunk_page_size=32,
                         dtype=torch.bfloat16, device="cpu"):
                self.num_layers = model_cfg["n_layer"]
                heads = model_cfg.get("HEADS_KEY", model_cfg["n_head"]) // shards
                if "head_size" in model_cfg:
                    head_size = model_cfg["head_size"]
                else:
                    head_size = model_cfg["d_model"] // model_cfg["n_head"]
                self.chunk_page_size = chunk_page_size
                row = self.num_layers * chunk_page_size * 2 * heads * head_size * dtype.itemsize
                self.chunk_num = int(spill_gib * 2**30) // row
                self.buf = torch.empty(
                    (self.chunk_num, self.num_layers, chunk_page_size, 2 * heads, head_size),
                    dtype=dtype,
                    device=device,
                )
    """,
    "tier/boot.py": """
        import torch

        from tier.slab import TokenSlab
        from tier.spill import SpillStore

        MODEL = {"n_layer": 24, "n_head": 32, "n_kv_head": 8, "d_model": 4096}


        def boot(device="cuda", model_cfg=MODEL, shards=2):
            slab = TokenSlab(
                100_000,
                torch.bfloat16,
                model_cfg["n_kv_head"] // shards,
                model_cfg["d_model"] // model_cfg["n_head"],
                model_cfg["n_layer"],
                device=device,
            )
            spill = SpillStore(model_cfg, shards, 8.0, device="meta" if device == "meta" else "cpu")
            return slab, spill
    """,
}


@pytest.mark.parametrize("key, bug", [("num_kv_heads", True), ("n_kv_head", False)])
def test_a_key_the_models_dict_lacks_takes_the_fallback(tmp_path, capsys, monkeypatch, key, bug):
    tree = {path: source.replace("HEADS_KEY", key) for path, source in TREE.items()}
    write_tree(tmp_path, tree)
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA001", "buf")} if bug else set())
    slab, spill = built_by_the_tree(tmp_path, monkeypatch, "tier", "boot", "boot", device="meta")
    device = slab.buf.nbytes // (slab.capacity * slab.num_layers)
    rows = spill.chunk_num * spill.chunk_page_size
    host = spill.buf.nbytes // (rows * spill.num_layers)
    assert (host != device) is bug
    if bug:  # 16 heads (32 // 2) where the device keeps 4 (8 // 2): 8192 vs 2048
        assert finding_figures(report) == {"buf": (host, device)}


def test_the_models_dict_is_said_and_its_nones_are_the_codes(tmp_path, capsys, monkeypatch):
    """A key the dict holds as None (`"head_size": None`, filled in by the code) is None, not
    a sampled number: both sides take the code's fallback. The pair says what it assumed."""
    tree = {path: source.replace("HEADS_KEY", "n_kv_head") for path, source in TREE.items()}
    tree["tier/boot.py"] = tree["tier/boot.py"].replace(
        '"d_model": 4096}', '"d_model": 4096, "head_size": None}'
    )
    tree["tier/spill.py"] = tree["tier/spill.py"].replace(
        'if "head_size" in model_cfg:', 'if model_cfg.get("head_size") is not None:'
    )
    write_tree(tmp_path, tree)
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == set()
    slab, spill = built_by_the_tree(tmp_path, monkeypatch, "tier", "boot", "boot", device="meta")
    device = slab.buf.nbytes // (slab.capacity * slab.num_layers)
    host = spill.buf.nbytes // (spill.chunk_num * spill.chunk_page_size * spill.num_layers)
    assert host == device
    main([str(tmp_path), "--no-cache", "--isolated", "--output-format", "json", "--show-pairs"])
    pairs = json.loads(capsys.readouterr().out)["pairs"]
    [pair] = [p for p in pairs if p["code"] == "PAIR"]
    assert "model_cfg: the keys and numbers of boot()'s default MODEL" in pair["assumed"]


def test_rows_a_budget_buys_under_a_name_not_saying_pages_stay_unresolved(tmp_path, capsys):
    """Rows of `chunk_page_size` tokens each counted as `capacity`: how many tokens a row
    holds is not said, so nothing is compared per row (before, 32x the device's figure)."""
    tree = {path: source.replace("HEADS_KEY", "n_kv_head") for path, source in TREE.items()}
    tree["tier/spill.py"] = tree["tier/spill.py"].replace("chunk_num", "capacity")
    write_tree(tmp_path, tree)
    report = audit_json(tmp_path, capsys)
    assert report["findings"] == []
    assert report["summary"]["pairs_compared"] == 0
