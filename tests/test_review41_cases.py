"""Trees a review of session 41's mends built where they went wrong, or right (tests/data/
review41), each checked by its writer by building the pools on torch's meta device. One mend
was backed out for them (a pool a helper function builds and returns, followed as a build of
that pool: it paired a target with its draft through the helper's arguments, ran the first of
two calls of the helper, and let a benchmark's pair through the helper stand for the
production pair); the others were narrowed:

- a07_helper_steals_pair: the production pair built directly keeps its true LA001 (fp32
  scales on one side, bf16 on the other); a helper's pair elsewhere no longer stands for it.
- c03_graph_mixin_dtype: an attention backend's mixin allocating its metadata through
  `self._alloc_metadata` over `range(self.num_wrappers)` is no pool (the allocator method
  counts only over a range saying layers): no false LA001.
- d03_kv_mamba_defaults, d04_self_cross_attn: a KV pool beside a state pool, a self-attention
  cache beside a cross-attention cache, each naming its storages at run time through one base
  from a plan of its own: not paired (storages named at run meet only where the base plans
  the names and neither pool writes its own).
- e04_enum_capped_members: an enum of seven formats made from a text nobody gives: four are
  tried (the limit a dimension), and the three left out are said as an unresolved item.
- f07_ifexp_blowup_loses_fp8: eleven options chosen in returned conditionals between texts
  are no flags (only a choice between sequences is): four points, the fp8 LA001 kept.
- b01_shape_method_scales, c05_alloc_mixin_pools: a shape method of two lengths led by one
  count, pools allocating through a mixin's allocator over their layers: now compared, clean.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import check_review_tree

from auditor.cli import main

DATA = Path(__file__).resolve().parent / "data" / "review41"

# tree: (findings as (code, buffer), pairs, pairs compared, most config points, unresolved)
EXPECTED = {
    "a07_helper_steals_pair": ({("LA001", "kv_scale")}, 1, 1, 7, 0),
    "b01_shape_method_scales": (set(), 1, 1, 1, 0),
    "c03_graph_mixin_dtype": (set(), 1, 1, 4, 0),
    "c05_alloc_mixin_pools": (set(), 1, 1, 4, 0),
    "d03_kv_mamba_defaults": (set(), 0, 0, 8, 0),
    "d04_self_cross_attn": (set(), 0, 0, 8, 8),
    "e04_enum_capped_members": (set(), 1, 1, 5, 2),
    "f07_ifexp_blowup_loses_fp8": ({("LA001", "k"), ("LA001", "v")}, 1, 1, 4, 0),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_review41_tree(name: str, capsys) -> None:
    check_review_tree(DATA / name, EXPECTED[name], capsys)


def test_the_enum_values_left_out_are_said(capsys) -> None:
    main([str(DATA / "e04_enum_capped_members"), "--no-cache", "--isolated", "--show-unresolved"])
    captured = capsys.readouterr()
    out = captured.out + captured.err
    assert "values the code demands, not tried (at most 4 a dimension)" in out
    assert "kv_format=fp8_e5m2/fp8_scaled/int8" in out


def test_the_values_left_out_are_said_from_the_cache_too(tmp_path, capsys, monkeypatch) -> None:
    """The second run reads the evaluation from the cache (written under tmp_path): the
    values left out are part of it, so the report is the same, item for item."""
    import shutil

    from auditor.incremental.cache import CACHE_DIR_NAME, CACHE_ROOT_ENV

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv(CACHE_ROOT_ENV, str(tmp_path / "root"))
    tree = tmp_path / "tree"
    shutil.copytree(DATA / "e04_enum_capped_members", tree)
    monkeypatch.chdir(tree)
    reports = []
    for _ in range(2):
        main([".", "--isolated", "--show-unresolved", "--output-format", "json"])
        report = json.loads(capsys.readouterr().out)
        report["summary"].pop("elapsed", None)
        reports.append(report)
    assert any((tmp_path / "root" / CACHE_DIR_NAME).rglob("*.json"))  # (read the second time)
    assert reports[0] == reports[1]
    said = [u for u in reports[1]["unresolved"] if "not tried" in json.dumps(u)]
    assert len(said) == 1 and "kv_format=fp8_e5m2/fp8_scaled/int8" in json.dumps(said[0])
