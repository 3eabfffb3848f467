"""Session 45's mends, each on a small tree (tests/data/review45) whose truth comes from its
pools built on torch's meta device. t01 to t03 fail on the session's starting code (027bbc0),
t04 on the first form of t01's mend (71c4c4c).

- t01: the row count a config object's method computes from the capacity given
  (`self.capacity = geom.padded(capacity)`). The method's value was read as a config value
  of its own (`Geometry.padded()`) and taken for the token count, while the run computed it
  from the sampled capacity: the bytes never followed the count, and the figure was
  0 B/token/layer. A method's value now depends on the token counts it is given too (on an
  object of a known class, whose method is run).
- t02: `geom["scale_dtype"].itemsize`, a dtype held by a dict's key: sampled as a number, so
  the scales' figure was unresolved (no `itemsize` on a number); it is varied over dtypes.
- t03: a staging pool whose untyped parameter (`gpu_cache`) every call building it passes a
  device pool (`gpu = PagedKV(...)`), allocating under names of its own (`k_stage`): it was a
  device pool beside the other (siblings, its host count a config value); it is a host of
  that device now, paired at its call site.
- t04 (from a review): `rows = cfg.rows_for(size)` on an untyped config object, whose class
  is not known and whose method is therefore not run: its value is a sample of its own, and
  the token count. Taking `size` for the token count there (the first form of t01's mend)
  measured 0 B/token/layer and lost the host's V bug; the mend applies to objects of a known
  class only.
"""

from __future__ import annotations

import re
from pathlib import Path

import torch
from helpers import audit_json, finding_figures, tree_modules

from auditor.cli import main

DATA = Path(__file__).resolve().parent / "data" / "review45"


def shown_figures(root: Path, capsys) -> dict[str, int]:
    """`--show-pools` lines of a pool audited alone: "[point] device <buffer>" -> bytes per
    token per layer (resolved figures only)."""
    main([str(root), "--no-cache", "--isolated", "--show-pools", "--exit-zero"])
    found = {}
    for line in capsys.readouterr().out.splitlines():
        shown = re.match(r"\s+(\[.*\]) device (\w+): .* = (\d+) B/token/layer$", line)
        if shown:
            found[f"{shown.group(1)} {shown.group(2)}"] = int(shown.group(3))
    return found


def test_a_row_count_a_method_computes_from_the_capacity_is_followed(capsys, monkeypatch):
    root = DATA / "t01"
    figures = shown_figures(root, capsys)
    (slabs,) = tree_modules(root, monkeypatch, "geoslab", "slabs")
    geometry = slabs.Geometry(2, 128, 128, torch.bfloat16)
    pool = slabs.LatentSlabs(geometry, 1000, device="meta")
    truth = pool.latent[0].nbytes // pool.capacity
    point = "[Geometry.dtype=bfloat16, Geometry.lora_rank=128, Geometry.rope_dim=128]"
    assert figures[f"{point} latent"] == truth == 512
    assert 0 not in figures.values()  # (the count never reached the rows: 0 everywhere)


def test_a_dtype_a_dict_key_holds_is_varied_as_a_dtype(capsys, monkeypatch):
    root = DATA / "t02"
    figures = shown_figures(root, capsys)
    (store,) = tree_modules(root, monkeypatch, "scalekv", "store")
    for dtype, name in ((torch.bfloat16, "bfloat16"), (torch.float8_e4m3fn, "float8_e4m3fn")):
        pool = store.ScaledStore({"heads": 128, "scale_dtype": dtype}, 10, 2, device="meta")
        shown = figures[f"[dict.heads=128, dict.scale_dtype={name}] scales"]
        assert shown == pool.scales[0].nbytes // 10
    report = audit_json(root, capsys)
    assert report["summary"]["unresolved"] == 0


def test_an_untyped_parameter_every_call_passes_a_device_pool_makes_a_host(capsys, monkeypatch):
    root = DATA / "t03"
    report = audit_json(root, capsys)
    summary = report["summary"]
    assert (summary["device_pools"], summary["host_pools"]) == (1, 1)
    assert (summary["pairs"], summary["pairs_compared"], summary["unresolved"]) == (1, 1, 0)
    [finding] = report["findings"]
    assert finding["code"] == "LA001" and finding["message"].startswith("v_stage:")
    assert "host and device disagree" in finding["message"]
    gpu, stage = tree_modules(root, monkeypatch, "stagekv", "gpu", "stage")
    device = gpu.PagedKV(100, 2, device="meta")
    host = stage.EvictionStage(device, 50, device="meta")
    truth = (host.v_stage[0].nbytes // 50, device.v_cache[0].nbytes // 100)
    assert f"{truth[0]} B/token/layer vs {truth[1]} B/token/layer" in finding["message"]
    assert truth == (1024, 2048)


def test_an_untyped_objects_method_value_stays_the_token_count(capsys, monkeypatch):
    root = DATA / "t04"
    report = audit_json(root, capsys)
    figures = finding_figures(report)
    assert set(figures) == {"v_buffer"} and report["summary"]["pairs_compared"] == 1
    host, device = figures["v_buffer"]
    device_module, host_module = tree_modules(root, monkeypatch, "rowkv", "device", "host")

    class Config:
        num_kv_heads, head_dim, dtype, num_layers = 8, 128, torch.bfloat16, 2

        def rows_for(self, n):
            return n + 1

    pool = device_module.RowPool(100, Config(), device="meta")
    mirror = host_module.RowPoolHost(pool, 50, device="meta")
    truth = (mirror.v_buffer[0].nbytes // 50, pool.v_buffer[0].nbytes // 101)
    assert truth == (1024, 2048) and host * truth[1] == device * truth[0]
    assert mirror.k_buffer[0].nbytes // 50 == pool.k_buffer[0].nbytes // 101
