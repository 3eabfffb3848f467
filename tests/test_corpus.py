"""Opt-in: audit real SGLang releases from PyPI (`python -m pytest -m corpus`; needs network)."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

pytestmark = pytest.mark.corpus

RUNNER = Path(__file__).resolve().parent.parent / "bench" / "corpus.py"


def _runner():
    spec = importlib.util.spec_from_file_location("corpus_runner", RUNNER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("version", ["0.4.6.post5", "0.5.1", "0.5.10", "0.5.23"])
def test_release_is_audited_without_errors(version: str) -> None:
    runner = _runner()
    summary = runner.measure(runner.fetch(version))
    assert summary["files"] > 100
    assert summary["device_pools"] > 0 and summary["pairs"] > 0
    assert summary["buffers"] > 0


INDEX_KEY_CACHE = "mem_cache/index_key_cache.py"
# the edit: the DSA device index-K rows become bf16 keys without their scale section
MUTATION = (
    ("dtype=pool.index_k_with_scale_buffer_dtype,", "dtype=torch.bfloat16,"),
    (
        "* (pool.index_head_dim + pool.index_head_dim // pool.quant_block_size * 4),",
        "* pool.index_head_dim,",
    ),
)


def _dsa_index_k(result) -> tuple[list, list]:
    """(LA001 findings on the declared DSA index-K pair, that pair's evaluated points)."""
    findings = [
        f
        for f in result.findings
        if f.code == "LA001"
        and (f.host.class_name, f.device.class_name) == ("DSAIndexerPoolHost", "DSATokenToKVPool")
    ]
    points = [
        point
        for evaluation in result.evaluations
        if evaluation.host is not None
        and (evaluation.host.name, evaluation.device.name)
        == ("DSAIndexerPoolHost", "DSATokenToKVPool")
        for point in evaluation.feasible
    ]
    return findings, points


def test_mutating_the_real_dsa_index_k_layout_is_found(tmp_path: Path) -> None:
    """SGLang 0.5.23 as released: the DSA index-K device buffer (IndexKeyCache, behind a
    property) and its declared host layout (HostPoolDecl from make_dsa_indexer_pool_decl) are
    paired and agree at 132 B/token/layer. Made bf16 without scales on the device only, the
    auditor reports LA001 with 132 and 256 on that pair."""
    from auditor.pipeline import audit
    from auditor.settings import load_settings

    fetched = _runner().fetch("0.5.23")  # the srt folder, or every folder of the release
    trees = list(fetched) if isinstance(fetched, (list, tuple)) else [fetched]
    [released] = [tree for tree in trees if tree.name == "srt"]
    others = [tree for tree in trees if tree is not released]
    settings = load_settings(None)
    settings.respect_gitignore = False  # the cache folder is git-ignored by this project

    findings, points = _dsa_index_k(audit(trees, settings))
    assert findings == []
    assert points, "the declared DSA index-K pair was not evaluated"
    compared = [
        (p.host["index_k_with_scale_buffer"], p.device["index_k_with_scale_buffer"])
        for p in points
        if "index_k_with_scale_buffer" in p.host and "index_k_with_scale_buffer" in p.device
    ]
    resolved = [(h, d) for h, d in compared if h.resolved and d.resolved]
    assert resolved, [d.unknown for _, d in compared]
    assert {(h.bytes_per_token_per_layer, d.bytes_per_token_per_layer) for h, d in resolved} == {
        (132, 132)
    }

    mutated = tmp_path / "srt"
    shutil.copytree(released, mutated)
    path = mutated / INDEX_KEY_CACHE
    source = path.read_text()
    for old, new in MUTATION:
        assert source.count(old) == 1, old
        source = source.replace(old, new)
    path.write_text(source)
    findings, _ = _dsa_index_k(audit([mutated, *others], settings))
    assert len(findings) == 1, [f.message for f in findings]
    [finding] = findings
    assert (finding.host.bytes_per_token, finding.device.bytes_per_token) == (132, 256)
    assert finding.host.buffer == finding.device.buffer == "index_k_with_scale_buffer"
    assert finding.location.path.endswith("mem_cache/pool_host/dsa.py")
    assert finding.device.location.path.endswith("mem_cache/memory_pool.py") or (
        finding.device.location.path.endswith(INDEX_KEY_CACHE)
    )
    assert "132 B/token/layer vs 256 B/token/layer" in finding.message


@pytest.mark.parametrize("version", ["0.4.6.post5", "0.5.10", "0.5.23"])
def test_the_pre_filter_checks_every_file_the_outline_rule_keeps(version: str) -> None:
    """auditor/frontend/prefilter.py against its oracle on a real engine: every file that CPython's
    outline says may define a pool (prefilter.outline_rule, all files checked) is among the
    files the byte-level pre-filter checks up front, and most files are not checked."""
    from auditor.frontend.discover import discover
    from auditor.frontend.parse import parse_file
    from auditor.frontend.prefilter import checked_facts, outline_rule, pool_words
    from auditor.frontend.project import read_file
    from auditor.settings import load_settings

    settings = load_settings(None)
    folders = _runner().fetch(version)
    sources, _ = discover(folders, respect_gitignore=False)
    every = [parse_file(s, str(s.path)) for s in sources]
    kept = outline_rule([m for m in every if hasattr(m, "outline")], pool_words(settings))
    files = [read_file(s) for s in sources]
    facts = checked_facts(files, [None] * len(files), 1, pool_words(settings))
    checked = {str(s.path) for s, known in zip(sources, facts) if known is not None}
    must = {str(m.source.path) for m in every if id(m) in kept}
    assert must and must <= checked, sorted(must - checked)
    assert len(checked) < len(sources) // 4


def test_each_file_alone_gets_the_stages_result_without_them(monkeypatch) -> None:
    """As the pre-commit hook hands files: every file of 0.5.23 audited alone. Where the run
    answers without the stages (no pool can be in the file), the stages give the same."""
    from test_no_pool_path import count_answers, outputs

    import auditor.pipeline
    from auditor.pipeline import audit
    from auditor.settings import load_settings

    settings = load_settings(None)
    answered = count_answers(monkeypatch)
    files = sorted(p for root in _runner().fetch("0.5.23") for p in root.rglob("*.py"))
    different = []
    for path in files:
        before = len(answered)
        quick = audit([path], settings)
        if len(answered) == before:
            continue  # the stages ran: nothing to compare
        with monkeypatch.context() as patched:
            patched.setattr(auditor.pipeline, "may_concern_stages", lambda project, parsed: True)
            staged = audit([path], settings)
        if outputs(quick) != outputs(staged):
            different.append(path)
    assert len(answered) > len(files) // 2  # most files hold no pool
    assert different == []
