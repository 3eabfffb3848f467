"""Hosts anchored on the tier's KV host (`anchor_host`): a stand-in where the code's is unknown.

tests/data/anchor_host is SGLang 0.5.23's MiniMax sparse stack in small: the assembler builds
the KV host from the callers' sparse pool (not followed), then the index-K host on it, which
copies its capacity. The index-K host's rows hold one head where the device keeps head_num.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace

import torch
from helpers import real_bytes_per_token_per_layer, real_torch
from test_fixtures_oracle import imported_fixture

from auditor.pipeline import audit
from auditor.settings import load_settings

REPO = Path(__file__).resolve().parent.parent
TREE = REPO / "tests" / "data" / "anchor_host"
PAIR = "IndexKOnlyPoolHost <- IndexKOnlyPool"
BUGGY_DIMS = "(self.layer_num, self.size, device_pool.head_dim)"
FIXED_DIMS = "(self.layer_num, self.size, device_pool.head_num, device_pool.head_dim)"


def _audit(root: Path, anchors: bool = True):
    settings = load_settings(None)
    if not anchors:
        settings.anchor_params = []
    return settings, audit([root], settings)


def _fixed(tmp_path: Path) -> Path:
    root = tmp_path / "anchor_fixed"
    shutil.copytree(TREE, root)
    host = root / "sglang" / "srt" / "mem_cache" / "memory_pool_host.py"
    text = host.read_text()
    assert text.count(BUGGY_DIMS) == 1
    host.write_text(text.replace(BUGGY_DIMS, FIXED_DIMS))
    return root


def test_the_anchored_host_is_compared_and_its_bug_reported_saying_what_was_assumed():
    _, result = _audit(TREE)
    assert result.coverage.line() == "2 of 2 pairs compared"
    [finding] = result.findings
    assert (finding.code, finding.host.class_name, finding.device.class_name) == (
        "LA001",
        "IndexKOnlyPoolHost",
        "IndexKOnlyPool",
    )
    assert "256 B/token/layer vs 2048 B/token/layer" in finding.message  # bfloat16, 8 heads
    assert "a stand-in anchor host of the build's tokens" in finding.message
    assert "sparse_pool, an argument the callers" in finding.message


def test_without_the_pack_entry_the_pair_is_not_compared_and_says_why():
    _, result = _audit(TREE, anchors=False)
    assert result.findings == []
    [pair] = [p for p in result.coverage.pairs if p.title == PAIR]
    assert (pair.compared, pair.reason) == (False, "host figures unresolved")


def test_the_fixed_tree_agrees(tmp_path):
    _, result = _audit(_fixed(tmp_path))
    assert result.findings == []
    assert result.coverage.line() == "2 of 2 pairs compared"


def test_an_anchor_the_code_gives_is_kept(tmp_path):
    """The assembler builds the KV host from a pool it knows: no stand-in, nothing assumed."""
    root = _fixed(tmp_path)
    assembly = root / "sglang" / "srt" / "mem_cache" / "host_assembly.py"
    text = assembly.read_text()
    old = "    index_host_pool = IndexKOnlyPoolHost(index_k_pool, kv_host_pool)\n"
    new = (
        "    own_host = MHATokenToKVPoolHost(index_k_pool, 1.0)\n"
        "    index_host_pool = IndexKOnlyPoolHost(index_k_pool, own_host)\n"
    )
    assert text.count(old) == 1
    assembly.write_text(text.replace(old, new))
    _, result = _audit(root)
    [evaluation] = [e for e in result.evaluations if e.host and e.host.name == "IndexKOnlyPoolHost"]
    assert evaluation.feasible
    for point in evaluation.feasible:
        assert not any("stand-in" in text for text in point.assumed)
        assert point.host["k_buffer"].bytes_per_token_per_layer == (
            point.device["k_buffer"].bytes_per_token_per_layer
        )


def test_static_figures_equal_the_real_host_built_on_the_stand_in(monkeypatch):
    """The oracle: the index-K host built for real on the meta device, on an anchor with the
    pack's attributes at each build's token count; its bytes per token per layer, derived as
    measure.py does, equal the static figure at every point."""
    settings, result = _audit(TREE)
    [evaluation] = [e for e in result.evaluations if e.host and e.host.name == "IndexKOnlyPoolHost"]
    (t1, t2), (l1, l2) = settings.token_counts, settings.layer_counts
    with imported_fixture(TREE):
        from sglang.srt.mem_cache.memory_pool import IndexKOnlyPool
        from sglang.srt.mem_cache.memory_pool_host import IndexKOnlyPoolHost

        monkeypatch.setattr(torch, "empty", _on_meta(torch.empty))
        for point in evaluation.feasible:
            values = point.values
            dtype = real_torch(values["dtype"])
            totals = {}
            for tokens, layers in ((t1, l1), (t2, l1), (t1, l2), (t2, l2)):
                device = IndexKOnlyPool(
                    tokens, values["page_size"], dtype, 8, 128, layers, device="meta"
                )
                scope = {"tokens": tokens, "page_size": values["page_size"]}
                anchor = SimpleNamespace(
                    **{n: eval(e, {}, scope) for n, e in settings.anchor_attributes.items()}
                )
                host = IndexKOnlyPoolHost(device, anchor)
                totals[tokens, layers] = (host.size, host.k_buffer.nbytes)
            (s11, _), (s21, _) = totals[t1, l1], totals[t2, l1]
            (s12, _), (s22, _) = totals[t1, l2], totals[t2, l2]
            assert s11 == s12 and s21 == s22  # the host holds the anchor's tokens
            real = real_bytes_per_token_per_layer(totals, settings)
            assert point.host["k_buffer"].bytes_per_token_per_layer == real
            assert real * 8 == point.device["k_buffer"].bytes_per_token_per_layer


def _on_meta(empty):
    def meta(*args, **kwargs):
        kwargs["device"] = "meta"
        return empty(*args, **kwargs)

    return meta
