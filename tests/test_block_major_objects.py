"""A block-major pool counted off config objects (`(num_pages, num_layers, 2, page, heads,
dim)`), its counts computed by module helpers from several objects (`stage_depth(model,
topo)` = `model.n_transformer_layers // topo.stages`): the helpers are read where they are
called (behaviour.returns_inlined), the layer axis second is found by its name, and the pool
and the spill tier that takes it are audited with no configuration, checked against the
tree's own tensors on the meta device. The spill tier's bug: it shards the query heads, not
the KV heads (GQA ignored)."""

from __future__ import annotations

import pytest
from helpers import audit_json, built_by_the_tree, one_pair_verdict, write_tree

SETTINGS = """
    class ModelSpec:
        n_transformer_layers: int = 48
        n_query_heads: int = 32
        n_kv_groups: int = 4
        head_width: int = 128

        def __init__(self, **given):
            for name, value in given.items():
                setattr(self, name, value)


    class Topology:
        shards: int = 2
        stages: int = 2

        def __init__(self, **given):
            for name, value in given.items():
                setattr(self, name, value)


    class PagingSpec:
        page_len: int = 16
        max_cached_tokens: int = 8192
        spill_tokens: int = 16384

        def __init__(self, **given):
            for name, value in given.items():
                setattr(self, name, value)
"""

SLAB = """
    import torch

    from .settings import ModelSpec, PagingSpec, Topology


    def stage_depth(model: ModelSpec, topo: Topology) -> int:
        return model.n_transformer_layers // topo.stages


    def groups_per_shard(model: ModelSpec, topo: Topology) -> int:
        return max(1, model.n_kv_groups // topo.shards)


    class PageSlab:
        def __init__(self, model: ModelSpec, paging: PagingSpec, topo: Topology, device="cuda"):
            self.page_len = paging.page_len
            self.num_pages = paging.max_cached_tokens // paging.page_len
            self.num_layers = stage_depth(model, topo)
            self.groups = groups_per_shard(model, topo)
            self.slab = torch.empty(
                (self.num_pages, self.num_layers, 2, self.page_len, self.groups,
                 model.head_width), dtype=torch.bfloat16, device=device)
"""

SPILL = """
    import torch

    from .settings import ModelSpec, PagingSpec, Topology
    from .slab import PageSlab


    class SpillTier:
        def __init__(self, slab: PageSlab, model: ModelSpec, paging: PagingSpec, topo: Topology,
                     device="cpu"):
            self.page_len = slab.page_len
            self.num_pages = paging.spill_tokens // self.page_len
            self.num_layers = slab.num_layers
            heads = HEADS
            self.slab = torch.empty(
                (self.num_pages, self.num_layers, 2, self.page_len, heads, model.head_width),
                dtype=torch.bfloat16, device=device)


    def build(model, paging, topo, device="cuda", spill_device="cpu"):
        slab = PageSlab(model, paging, topo, device=device)
        return slab, SpillTier(slab, model, paging, topo, device=spill_device)
"""


@pytest.mark.parametrize(
    "heads, bug",
    [("slab.groups", False), ("model.n_query_heads // topo.shards", True)],
)
def test_a_block_major_pool_counted_off_objects_by_helpers(
    tmp_path, capsys, monkeypatch, heads, bug
):
    write_tree(
        tmp_path,
        {
            "tiers/__init__.py": "",
            "tiers/settings.py": SETTINGS,
            "tiers/slab.py": SLAB,
            "tiers/spill.py": SPILL.replace("HEADS", heads),
        },
    )
    report = audit_json(tmp_path, capsys)
    assert (report["summary"]["device_pools"], report["summary"]["host_pools"]) == (1, 1)
    assert one_pair_verdict(report) == ({("LA001", "slab")} if bug else set())
    # the oracle: the tree's own pools at its classes' defaults, on the meta device
    model, paging, topo = _specs(tmp_path, monkeypatch)
    slab, spill = built_by_the_tree(
        tmp_path,
        monkeypatch,
        "tiers",
        "spill",
        "build",
        model=model,
        paging=paging,
        topo=topo,
        device="meta",
        spill_device="meta",
    )
    per_token = slab.slab.nbytes // (8192 * 24)
    spilled = spill.slab.nbytes // (16384 * 24)
    assert (per_token != spilled) is bug
    if bug:
        message = report["findings"][0]["message"]
        assert "host and device disagree" in message and "SpillTier.slab" in message


def _specs(tmp_path, monkeypatch) -> tuple:
    model = built_by_the_tree(tmp_path, monkeypatch, "tiers", "settings", "ModelSpec")
    paging = built_by_the_tree(tmp_path, monkeypatch, "tiers", "settings", "PagingSpec")
    topo = built_by_the_tree(tmp_path, monkeypatch, "tiers", "settings", "Topology")
    return model, paging, topo


def test_a_count_from_a_helper_outside_the_tree_makes_no_pool(tmp_path, capsys):
    """Without the helpers' bodies (a count from a function outside the tree) the pool is not
    taken for one: its layers are computed by code the audit cannot read."""
    slab = SLAB.replace(
        "def stage_depth(model: ModelSpec, topo: Topology) -> int:\n"
        "        return model.n_transformer_layers // topo.stages",
        "from elsewhere import stage_depth  # noqa: E402",
    )
    assert slab != SLAB
    write_tree(
        tmp_path,
        {
            "tiers/__init__.py": "",
            "tiers/settings.py": SETTINGS,
            "tiers/slab.py": slab,
            "tiers/spill.py": SPILL.replace("HEADS", "slab.groups"),
        },
    )
    report = audit_json(tmp_path, capsys)
    assert report["summary"]["device_pools"] == 0
