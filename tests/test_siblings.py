"""Disaggregated siblings (auditor/pairing/siblings.py): two device pools one function builds
from the same arguments (prefill and decode sides) are compared buffer by buffer, the later-built
in the host's place; pools built in exclusive branches, or from arguments that differ in what
sizes them, are not. Also the idioms the probe that showed them used: a config dataclass whose
string and dtype fields have defaults (never sampled as numbers), a table read with `.get`, and
layers counted as the length of a list of ids (`len(params.layer_ids)`)."""

from __future__ import annotations

import importlib
import json
import sys

import pytest
from helpers import write_tree

from auditor.cli import main

POOLS = """
    from dataclasses import dataclass

    import torch

    KINDS = {"fp8": torch.float8_e4m3fn, "fp8_e5m2": torch.float8_e5m2}


    @dataclass
    class Split:
        layers: int = 6
        heads: int = 4
        head_dim: int = 32
        dtype: torch.dtype = torch.bfloat16
        cache_dtype: str = "fp8"
        prefill_tokens: int = 96
        decode_tokens: int = 160


    class Sender:
        def __init__(self, cfg: Split, device="cpu"):
            self.cfg = cfg
            self.num_tokens = cfg.prefill_tokens
            store = KINDS.get(cfg.cache_dtype, cfg.dtype)
            self.k_cache = torch.empty(cfg.layers, self.num_tokens, cfg.heads, cfg.head_dim, dtype=store, device=device)
            self.scales = torch.ones(cfg.layers, self.num_tokens, cfg.heads, dtype=torch.float32, device=device)


    class Receiver:
        def __init__(self, cfg: Split, device="cpu"):
            self.cfg = cfg
            self.num_tokens = cfg.decode_tokens
            store = KINDS.get(cfg.cache_dtype, cfg.dtype)
            self.k_cache = torch.empty(cfg.layers, self.num_tokens, cfg.heads, cfg.head_dim, dtype=store, device=device)
            self.scales = torch.ones(cfg.layers, self.num_tokens, cfg.heads, dtype=SCALE, device=device)
"""

BUILD = """
    from .pools import Receiver, Sender, Split


    def build(cfg=None, send_device="cpu", receive_device="cpu"):
        cfg = cfg or Split()
        BODY
"""

SIDE_BY_SIDE = "return Sender(cfg, send_device), Receiver(cfg, receive_device)"


def audit(root, capsys, *extra: str) -> dict:
    code = main([str(root), "--no-cache", "--isolated", "--output-format", "json", *extra])
    report = json.loads(capsys.readouterr().out)
    report["exit"] = code
    return report


def tree(tmp_path, scale: str = "torch.float32", body: str = SIDE_BY_SIDE):
    write_tree(
        tmp_path,
        {
            "pd/__init__.py": "",
            "pd/pools.py": POOLS.replace("SCALE", scale),
            "pd/build.py": BUILD.replace("BODY", body),
        },
    )
    return tmp_path


def test_siblings_built_from_one_config_are_compared_and_agree(tmp_path, capsys):
    report = audit(tree(tmp_path), capsys)
    summary = report["summary"]
    assert report["exit"] == 0 and report["findings"] == []
    assert summary["pairs"] == summary["pairs_compared"] == 1 and summary["unresolved"] == 0
    main([str(tmp_path), "--no-cache", "--isolated", "--show-pairs"])
    text = capsys.readouterr().out
    assert "Receiver <- Sender: siblings: call site" in text
    assert "built beside Sender (line 6) from the same arguments (cfg)" in text


def test_a_dtype_drifting_on_one_sibling_is_reported_with_both_figures(tmp_path, capsys):
    report = audit(tree(tmp_path, scale="cfg.dtype"), capsys)
    assert report["exit"] == 1
    assert [(f["code"], f["message"].split(":", 1)[0]) for f in report["findings"]] == [
        ("LA001", "scales")
    ]
    finding = report["findings"][0]
    # at the config class's defaults (4 heads): bf16 scales against float32 ones
    assert "8 B/token/layer vs 16 B/token/layer" in finding["message"]
    assert finding["pairing_evidence"]["kind"] == "sibling"


@pytest.mark.parametrize(
    "body",
    [
        # exclusive branches: one side or the other, never both
        "if send_device == 'a':\n            return Sender(cfg)\n"
        "        else:\n            return Receiver(cfg)",
        "return Sender(cfg) if send_device == 'a' else Receiver(cfg)",
        # built from different configurations
        "return Sender(cfg), Receiver(Split(heads=8))",
        # `**` of a dict whose keys the code does not say hides what each receives
        "kw = dict(getattr(cfg, 'pool_kwargs', {}))\n"
        "        return Sender(cfg, **kw), Receiver(cfg, **kw)",
    ],
)
def test_pools_not_built_side_by_side_from_one_config_are_not_siblings(tmp_path, capsys, body):
    report = audit(tree(tmp_path, scale="cfg.dtype", body=body), capsys)
    assert report["findings"] == [] and report["summary"]["pairs"] == 0


def test_a_kwargs_dict_of_the_function_is_read_by_its_keys(tmp_path, capsys):
    """`kw = {'cfg': cfg}` then `Sender(**kw), Receiver(**kw)`: both built from one config,
    as side by side (session 39: the keys the function puts in the dict are followed)."""
    body = "kw = {'cfg': cfg}\n        return Sender(**kw), Receiver(**kw)"
    report = audit(tree(tmp_path, scale="cfg.dtype", body=body), capsys)
    assert [(f["code"], f["message"].split(":", 1)[0]) for f in report["findings"]] == [
        ("LA001", "scales")
    ]
    assert "8 B/token/layer vs 16 B/token/layer" in report["findings"][0]["message"]


def test_the_config_fields_take_their_defaults_not_numbers(tmp_path, capsys):
    """`cache_dtype: str = "fp8"` read through `KINDS.get(...)`: the default and the table's
    keys, never a number; `dtype: torch.dtype = torch.bfloat16`: a dtype, its default first."""
    main([str(tree(tmp_path)), "--no-cache", "--isolated", "--show-pools"])
    text = capsys.readouterr().out
    assert "Split.cache_dtype=fp8," in text and "Split.cache_dtype=fp8_e5m2" in text
    assert "Split.cache_dtype=16" not in text and "Split.cache_dtype=64" not in text
    first = next(line for line in text.splitlines() if line.startswith("  ["))
    assert "Split.heads=4" in first and "Split.head_dim=32" in first  # the defaults first


def test_the_static_figures_are_the_meta_tensors_bytes(tmp_path, capsys, monkeypatch):
    """Oracle: the tree's own `build()` on torch's meta device, bytes per token per layer of
    the drifting buffer on each side, against the audit's figures at the config's defaults."""
    root = tree(tmp_path, scale="cfg.dtype")
    monkeypatch.syspath_prepend(str(root))
    for name in [n for n in sys.modules if n == "pd" or n.startswith("pd.")]:
        monkeypatch.delitem(sys.modules, name)
    sender, receiver = importlib.import_module("pd.build").build(
        send_device="meta", receive_device="meta"
    )
    for name in [n for n in sys.modules if n == "pd" or n.startswith("pd.")]:
        monkeypatch.delitem(sys.modules, name)  # the next test writes another `pd`
    layers = sender.cfg.layers

    def per_token_layer(pool) -> int:
        return pool.scales.nbytes // (pool.num_tokens * layers)

    report = audit(root, capsys)
    message = report["findings"][0]["message"]
    host, device = per_token_layer(receiver), per_token_layer(sender)
    assert (host, device) == (8, 16)
    assert f"{host} B/token/layer vs {device} B/token/layer" in message


LENGTH = """
    from typing import NamedTuple, Sequence

    import torch


    class Params(NamedTuple):
        layer_ids: Sequence[int]
        heads: int
        width: int
        dtype: torch.dtype


    class Primary:
        def __init__(self, params: Params, max_slots: int, device="cpu"):
            self.params = params
            self.max_slots = max_slots
            self.pool = torch.zeros(
                len(params.layer_ids), max_slots, params.heads * params.width,
                dtype=params.dtype, device=device,
            )


    class Secondary:
        def __init__(self, primary: Primary, max_slots: int):
            layers, _, width = primary.pool.shape
            self.max_slots = max_slots
            self.pool = torch.empty(layers, max_slots, WIDTH, dtype=primary.pool.dtype)


    def make(params, slots, spare):
        primary = Primary(params, slots)
        return primary, Secondary(primary, spare)
"""


@pytest.mark.parametrize("width, bug", [("width", False), ("width // 2", True)])
def test_layers_counted_as_a_list_length_are_built_as_ids(tmp_path, capsys, width, bug):
    write_tree(tmp_path, {"t/__init__.py": "", "t/pools.py": LENGTH.replace("WIDTH", width)})
    report = audit(tmp_path, capsys)
    summary = report["summary"]
    assert summary["device_pools"] == 1 and summary["pairs_compared"] == 1
    assert summary["unresolved"] == 0
    found = [(f["code"], f["message"].split(":", 1)[0]) for f in report["findings"]]
    assert found == ([("LA001", "pool")] if bug else [])


DERIVED = """
    import torch


    class RingCache:
        def __init__(self, n_layer=4, n_head=2, d_head=16, n_slot=64, dt=torch.float16, device="cpu"):
            self.n_layer = n_layer
            self.n_head = n_head
            self.d_head = d_head
            self.n_slot = n_slot
            self.dt = dt
            self.ring = torch.empty(n_layer, n_slot, 2 * n_head * d_head, dtype=dt, device=device)


    class StagingRing:
        def __init__(self, n_layer=4, n_head=2, d_head=16, n_slot=64, dt=torch.float16, device="cpu"):
            self.n_slot = n_slot
            self.ring = torch.empty(n_layer, n_slot, WIDTH, dtype=dt, device=device)

        @classmethod
        def mirror_of(cls, ring: RingCache, n_slot: int, device="cpu"):
            return cls(n_layer=ring.n_layer, n_head=ring.n_head, d_head=ring.d_head,
                       n_slot=n_slot, dt=ring.dt, device=device)


    def make(device="cpu", staging="cpu", spare=256):
        ring = RingCache(device=device)
        BUILD
        return ring, staging
"""

THROUGH_CLASSMETHOD = "staging = StagingRing.mirror_of(ring, spare, device=staging)"
DIRECTLY = "staging = StagingRing(ring.n_layer, ring.n_head, ring.d_head, spare, ring.dt, staging)"


@pytest.mark.parametrize("build", [THROUGH_CLASSMETHOD, DIRECTLY])
@pytest.mark.parametrize("width, bug", [("2 * n_head * d_head", False), ("n_head * d_head", True)])
def test_a_pool_built_from_another_pools_attributes_is_its_mirror(
    tmp_path, capsys, monkeypatch, build, width, bug
):
    """Neither class takes the other, and the two calls share no argument: the second pool is
    given the first one's attributes (`ring.n_head`, ...), directly or through a classmethod
    returning `cls(...)`. Checked against the tree's own `make()` on the meta device."""
    source = DERIVED.replace("WIDTH", width).replace("BUILD", build)
    write_tree(tmp_path, {"rc/__init__.py": "", "rc/pools.py": source})
    report = audit(tmp_path, capsys)
    summary = report["summary"]
    assert summary["pairs"] == summary["pairs_compared"] == 1 and summary["unresolved"] == 0
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in [n for n in sys.modules if n == "rc" or n.startswith("rc.")]:
        monkeypatch.delitem(sys.modules, name)
    ring, staging = importlib.import_module("rc.pools").make(device="meta", staging="meta")
    for name in [n for n in sys.modules if n == "rc" or n.startswith("rc.")]:
        monkeypatch.delitem(sys.modules, name)
    host = staging.ring.nbytes // (staging.n_slot * ring.n_layer)
    device = ring.ring.nbytes // (ring.n_slot * ring.n_layer)
    assert (host != device) is bug
    if bug:
        [finding] = report["findings"]
        assert finding["code"] == "LA001" and finding["pairing_evidence"]["kind"] == "sibling"
        assert f"{host} B/token/layer vs {device} B/token/layer" in finding["message"]
    else:
        assert report["findings"] == [] and report["exit"] == 0
    main([str(tmp_path), "--no-cache", "--isolated", "--show-pairs"])
    text = capsys.readouterr().out
    assert "StagingRing <- RingCache: siblings" in text
    assert "built from RingCache's attributes (ring.d_head, ring.dt, ring.n_head)" in text
