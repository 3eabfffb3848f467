"""The vLLM engine end to end: spec classes found, sites evaluated, LA201 on the fixture pair.

fixtures/vllm_hybrid_mla_{buggy,fixed} is vLLM 0.11.0 / 0.11.1 cut down: the hybrid
attention/Mamba alignment sizes the attention page with `FullAttentionSpec` even for MLA
models (buggy), or with `MLAAttentionSpec` when `use_mla` (fixed).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from auditor.engines.vllm_pack import load_pack
from auditor.pipeline import audit
from auditor.settings import ConfigError, load_settings

REPO = Path(__file__).resolve().parent.parent
BUGGY = "fixtures/vllm_hybrid_mla_buggy"
FIXED = "fixtures/vllm_hybrid_mla_fixed"


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "auditor", *args, "--no-cache"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )


def findings_of(path: str) -> tuple[int, list[dict]]:
    done = run_cli(path, "--output-format", "json")
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, json.loads(done.stdout)["findings"]


def test_buggy_alignment_is_reported_at_the_recomputation() -> None:
    code, findings = findings_of(BUGGY)
    assert code == 1
    assert [f["code"] for f in findings] == ["LA201"]
    [finding] = findings
    assert finding["path"].endswith("vllm/model_executor/models/config.py")
    assert finding["line"] == 20  # the FullAttentionSpec(...) call
    recomputed, layer = finding["host"], finding["device"]
    assert (recomputed["class"], recomputed["bytes_per_token"]) == ("FullAttentionSpec", 2304)
    assert (layer["class"], layer["bytes_per_token"]) == ("MLAAttentionSpec", 1152)
    assert layer["path"].endswith("vllm/v1/worker/gpu_model_runner.py")
    message = finding["message"]
    assert "2304 B/token vs 1152 B/token" in message
    assert "36864 vs 18432 B/block at block_size=16" in message
    assert "spec class FullAttentionSpec vs MLAAttentionSpec" in message
    # both sides' arithmetic, as written, with the values
    assert "2 * self.block_size * self.num_kv_heads * self.head_size" in message
    assert "head_size=576" in message and "dtype=bfloat16" in message
    # every MLA point shows it (the recomputation counts K and V), no GQA point does
    assert finding["config"]["model"] == "mla-576"
    assert len(finding["points"]) == 16
    assert all(p["model"] == "mla-576" for p in finding["points"])
    by_cache = {
        (p["cache_dtype"], p["recomputed_bytes_per_token"], p["layer_bytes_per_token"])
        for p in finding["points"]
    }
    assert by_cache == {
        ("auto", 2304, 1152),
        ("fp8", 1152, 576),
        ("fp8_e5m2", 1152, 576),
        ("fp8_ds_mla", 1152, 656),
    }
    assert finding["points_evaluated"] == 32


def test_fixed_alignment_is_clean() -> None:
    assert findings_of(FIXED) == (0, [])


def test_text_output_names_the_layer_side() -> None:
    done = run_cli(BUGGY)
    assert done.returncode == 1
    assert " LA201 recomputed KV page differs from the layer's own" in done.stdout
    assert "  layer side: fixtures/vllm_hybrid_mla_buggy/vllm/v1/worker/gpu_model_runner.py:" in (
        done.stdout
    )
    assert "5 KV spec classes, 5 spec sites" in done.stderr


def test_show_pools_lists_the_specs_evaluated() -> None:
    done = run_cli(FIXED, "--show-pools")
    out = done.stdout
    assert "MLAAttentionSpec built by vllm.v1.worker.gpu_model_runner.GPUModelRunner" in out
    assert "cache_dtype=fp8_ds_mla, block_size=16] MLAAttentionSpec: 656 B/token" in out
    assert "self.block_size * 656" in out
    # the recomputation of the fixed tree builds the MLA spec when use_mla
    assert "MLAAttentionSpec built by vllm.model_executor.models.config" in out


def test_explain() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "auditor", "--explain", "LA201"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0
    assert done.stdout.startswith("LA201 (recomputed-page-mismatch)")
    assert "## Why it matters" in done.stdout


def test_ignoring_la201_silences_it() -> None:
    code, findings = findings_of_with(BUGGY, "--ignore", "LA201")
    assert (code, findings) == (0, [])


def findings_of_with(path: str, *extra: str) -> tuple[int, list[dict]]:
    done = run_cli(path, "--output-format", "json", *extra)
    return done.returncode, json.loads(done.stdout)["findings"]


def test_without_mla_models_the_bug_does_not_show(tmp_path: Path) -> None:
    """The finding depends on the pack's MLA model shape: a pack with only the GQA shape
    (the alignment then agrees with the layer) must report nothing."""
    pack = (REPO / "rules" / "vllm.toml").read_text()
    start = pack.index('[[vllm.models]]\nmodel = "mla-576"')
    end = pack.index('[[vllm.models]]\nmodel = "gqa-8x128"')
    (tmp_path / "gqa.toml").write_text(pack[:start] + pack[end:])
    code, findings = findings_of_with(BUGGY, "--rule-pack", str(tmp_path / "gqa.toml"))
    assert (code, findings) == (0, [])


def test_an_sglang_tree_has_no_kv_specs() -> None:
    result = audit([REPO / "fixtures" / "incident_buggy"], load_settings(None))
    assert result.stages == [] and result.stage_rows == []


def test_bad_vllm_table_is_a_config_error() -> None:
    table = {"source": "x.toml", "models": [], "matrix": {}}
    with pytest.raises(ConfigError, match="x.toml: vllm.models must be a non-empty array"):
        load_pack(table)
    table = {"source": "x.toml", "bogus": 1}
    with pytest.raises(ConfigError, match="unknown key 'vllm.bogus'"):
        load_pack(table)
    table = {
        "source": "x.toml",
        "models": [{"model": "m", "head_size": 1}],
        "reads": {"layer.head_size": "nope"},
    }
    with pytest.raises(ConfigError, match="no dimension 'nope'"):
        load_pack(table)


def test_bad_vllm_pack_on_the_command_line_exits_2(tmp_path: Path) -> None:
    (tmp_path / "bad.toml").write_text(
        '[vllm]\nmatrix = { block_size = "16" }\n[[vllm.models]]\nmodel = "m"\nhead_size = 64\n'
    )
    done = run_cli(BUGGY, "--rule-pack", str(tmp_path / "bad.toml"))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "vllm.matrix.block_size must be a non-empty list" in done.stderr


def test_bundled_pack_points() -> None:
    pack = load_pack({})
    points = pack.points()
    assert len(points) == 32
    assert {p["model"] for p in points} == {"mla-576", "gqa-8x128"}
    assert all(p["layer.sliding_window"] is None for p in points)
    assert pack.shape_dimensions == {"head_size", "num_kv_heads"}


def test_a_cached_rerun_sees_a_new_recomputation(tmp_path: Path) -> None:
    """The whole result of a vLLM tree is not reused: a file that built no spec (and so was
    never parsed) may start building one."""
    import shutil

    tree = tmp_path / "tree"
    shutil.copytree(REPO / FIXED, tree)
    extra = tree / "vllm" / "estimate.py"
    extra.write_text("BLOCK = 16\n")
    (tmp_path / "pyproject.toml").write_text("[tool.layout-audit]\n")
    args = [str(tree), "--output-format", "json", "--config", str(tmp_path / "pyproject.toml")]

    def run() -> list[dict]:
        done = subprocess.run(
            [sys.executable, "-m", "auditor", *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
        )
        return json.loads(done.stdout)["findings"]

    assert run() == []
    extra.write_text(
        "from vllm.v1.kv_cache_interface import FullAttentionSpec\n\n\n"
        "def estimate(vllm_config):\n"
        "    model_config = vllm_config.model_config\n"
        "    return FullAttentionSpec(block_size=1, num_kv_heads=model_config.get_num_kv_heads(1),"
        " head_size=model_config.get_head_size(), dtype=model_config.dtype).page_size_bytes\n"
    )
    assert [f["code"] for f in run()] == ["LA201"]
