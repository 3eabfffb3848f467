"""Pools reading their counts off a config object, written as other teams write them (trees in
tests/data/config_objects, from a probe of the feature): a host named by the pack's
`device_pool` taking the same config class under another name, nested configs
(`cfg.model.num_layers`), a helper method reading a local alias of the config, a count taken
into a local (`L = cfg.num_layers`) before a leading dimension, a paged pool
whose page size is an attribute of the config. Zero configuration; each tree's findings are
the real ones (or none), and every pair is compared."""

from __future__ import annotations

from pathlib import Path

import pytest

from auditor.pipeline import audit
from auditor.settings import load_settings

ROOT = Path(__file__).resolve().parent / "data" / "config_objects"

# tree: (LA001 buffers reported, what the messages must name)
EXPECTED = {
    "pack_named_host_ok": ([], ""),
    "pack_named_host_bug": (["latent_buffer"], "256 B/token/layer vs 512 B/token/layer"),
    "nested_bug": (["keys", "values"], "ServerConfig.cache.dtype"),
    "helper_alias_ok": ([], ""),
    "paged_bug": (["k_pages", "v_pages"], "B/token/layer"),
    # the host takes the layer count into a local first (`L = cfg.num_layers`), then a
    # leading dimension; scales gated by a flag of the config, bf16 on the host (the bug)
    "local_count_bug": (["k_scale", "v_scale"], "256 B/token/layer vs 512 B/token/layer"),
    "local_count_ok": ([], ""),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_config_object_trees_are_compared_and_report_their_bugs(name):
    result = audit([ROOT / name], load_settings(None))
    coverage = result.coverage
    assert result.unresolved == [] and result.errors == [], result.unresolved
    assert coverage.pairs and coverage.compared == len(coverage.pairs), coverage
    buffers, named = EXPECTED[name]
    assert sorted(f.host.buffer for f in result.findings) == sorted(buffers)
    assert all(f.code == "LA001" for f in result.findings)
    assert all(named in f.message for f in result.findings)
