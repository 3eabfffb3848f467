"""LA002 (a host's own size per token) and LA003 (a device buffer no host mirrors), end to end on
their buggy / fixed fixtures, with real torch (meta device) as the oracle for both figures."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import torch

from auditor.pipeline import audit
from auditor.report import github, sarif
from auditor.settings import load_settings

REPO = Path(__file__).resolve().parent.parent
LA002 = "fixtures/la002_size_per_token"
LA003 = "fixtures/la003_scale_buffer"
FP8 = ("float8_e4m3fn", "float8_e5m2")


def run_cli(path: str, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "auditor", path, "--isolated", *extra],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )


def run_json(path: str, *extra: str) -> tuple[int, list[dict[str, Any]]]:
    done = run_cli(path, "--output-format", "json", *extra)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, json.loads(done.stdout)["findings"]


def real_figures(tree: str) -> dict[str, Any]:
    """Build the fixture's pools for real on the meta device at fp8 and bf16 and measure:
    the host's size_per_token per layer, and each device buffer's bytes per token per layer."""
    root = REPO / tree
    sys.path.insert(0, str(root))
    try:
        from sglang.srt.mem_cache.memory_pool import MHATokenToKVPool
        from sglang.srt.mem_cache.memory_pool_host import MHATokenToKVPoolHost

        found: dict[str, Any] = {}
        for dtype in (torch.bfloat16, torch.float8_e4m3fn):
            builds = {}
            for size, layers in ((100, 2), (300, 2), (100, 5), (300, 5)):
                device = MHATokenToKVPool(size, 1, dtype, 8, 128, layers, "meta")
                host = MHATokenToKVPoolHost(device, 2, pin_memory=False, device="meta")
                buffers = {
                    n: sum(t.nbytes for t in v)
                    for n, v in vars(device).items()
                    if isinstance(v, list) and v and isinstance(v[0], torch.Tensor)
                }
                builds[(size, layers)] = (buffers, host.size_per_token, set(vars(host)))
            per_layer = {
                n: (
                    builds[(300, 5)][0][n]
                    - builds[(100, 5)][0][n]
                    - builds[(300, 2)][0][n]
                    + builds[(100, 2)][0][n]
                )
                // (200 * 3)
                for n in builds[(100, 2)][0]
            }
            claim = (builds[(100, 5)][1] - builds[(100, 2)][1]) // 3
            found[str(dtype).removeprefix("torch.")] = (per_layer, claim, builds[(100, 2)][2])
        return found
    finally:
        sys.path.remove(str(root))
        for name in [n for n in sys.modules if n == "sglang" or n.startswith("sglang.")]:
            del sys.modules[name]


def test_la002_buggy_reports_both_figures_where_the_oracle_sees_them() -> None:
    code, findings = run_json(f"{LA002}_buggy")
    assert code == 1
    assert [f["code"] for f in findings] == ["LA002"]
    [finding] = findings
    real = real_figures(f"{LA002}_buggy")
    device, claim, _ = real["float8_e4m3fn"]
    held = sum(device.values())  # the host mirrors K, V and both scale buffers
    assert (finding["host"]["bytes_per_token"], finding["device"]["bytes_per_token"]) == (
        claim,
        held,
    )
    assert (claim, held) == (2048, 2112)
    # at bf16 there are no scales and the real figures agree: the finding is fp8-only
    device, claim, _ = real["bfloat16"]
    assert claim == sum(device.values())
    assert {p["config"]["dtype"] for p in finding["points"]} == set(FP8)
    message = finding["message"]
    assert "2048 B/token/layer" in message and "2112 B/token/layer" in message
    assert "dtype in {float8_e4m3fn, float8_e5m2}" in message
    assert finding["path"].endswith(
        "la002_size_per_token_buggy/sglang/srt/mem_cache/memory_pool_host.py"
    )
    assert finding["line"] == 38  # def get_size_per_token


def test_la002_fixed_gives_nothing_and_its_real_figures_agree() -> None:
    assert run_json(f"{LA002}_fixed") == (0, [])
    for device, claim, _ in real_figures(f"{LA002}_fixed").values():
        assert claim == sum(device.values())


def test_la003_buggy_names_each_unmirrored_scale_buffer() -> None:
    code, findings = run_json(f"{LA003}_buggy")
    assert code == 1
    assert sorted((f["code"], f["device"]["buffer"]) for f in findings) == [
        ("LA003", "k_scale_buffer"),
        ("LA003", "v_scale_buffer"),
    ]
    device, _, host_attributes = real_figures(f"{LA003}_buggy")["float8_e4m3fn"]
    for finding in findings:
        buffer = finding["device"]["buffer"]
        assert buffer not in host_attributes  # the oracle: the real host has no such buffer
        assert finding["device"]["bytes_per_token"] == device[buffer] == 32
        assert {p["config"]["dtype"] for p in finding["points"]} == set(FP8)
        assert "MHATokenToKVPoolHost mirrors k_buffer, v_buffer only" in finding["message"]
        assert finding["path"].endswith(
            "la003_scale_buffer_buggy/sglang/srt/mem_cache/memory_pool.py"
        )
    lines = {f["device"]["buffer"]: f["line"] for f in findings}
    assert lines == {"k_scale_buffer": 42, "v_scale_buffer": 46}


def test_la003_fixed_gives_nothing() -> None:
    assert run_json(f"{LA003}_fixed") == (0, [])
    _, _, host_attributes = real_figures(f"{LA003}_fixed")["float8_e4m3fn"]
    assert {"k_scale_buffer", "v_scale_buffer"} <= host_attributes


def test_text_output_and_exit_codes() -> None:
    done = run_cli(f"{LA003}_buggy")
    assert done.returncode == 1
    lines = [line for line in done.stdout.splitlines() if " LA003 " in line]
    assert lines[0].startswith(f"{LA003}_buggy/sglang/srt/mem_cache/memory_pool.py:42:17: LA003 ")
    assert "Found 2 findings" in done.stderr
    assert run_cli(f"{LA003}_buggy", "--exit-zero").returncode == 0
    assert run_cli(f"{LA003}_buggy", "--ignore", "LA003").returncode == 0
    assert run_cli(f"{LA002}_buggy", "--select", "LA001").returncode == 0


def test_explain_has_the_four_sections() -> None:
    for code in ("LA002", "LA003"):
        done = subprocess.run(
            [sys.executable, "-m", "auditor", "--explain", code],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        for section in ("## What it finds", "## Why it matters", "## Example", "## Use instead"):
            assert section in done.stdout, (code, section)


@pytest.mark.parametrize("tree,line", [(LA002, 38), (LA003, 42)])
def test_a_suppression_comment_silences_it(tmp_path: Path, tree: str, line: int) -> None:
    root = tmp_path / "tree"
    shutil.copytree(REPO / f"{tree}_buggy", root)
    relative = "memory_pool_host.py" if tree == LA002 else "memory_pool.py"
    path = root / "sglang/srt/mem_cache" / relative
    text = path.read_text().splitlines(keepends=True)
    code = "LA002" if tree == LA002 else "LA003"
    text[line - 1] = text[line - 1].rstrip("\n") + f"  # layout-audit: ignore[{code}]\n"
    path.write_text("".join(text))
    result = audit([root], load_settings(None))
    assert [f.code for f in result.suppressed] == [code]
    assert all(f.code != code or f.location.line != line for f in result.findings)


def test_sarif_and_github_output_stay_valid(monkeypatch: pytest.MonkeyPatch) -> None:
    schema = json.loads((REPO / "tests/data/sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    validator = jsonschema.validators.validator_for(schema)(schema)
    monkeypatch.chdir(REPO)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    for tree in (f"{LA002}_buggy", f"{LA003}_buggy"):
        result = audit([Path(tree)], load_settings(None))
        out = io.StringIO()
        sarif.render(result, out)
        document = json.loads(out.getvalue())
        validator.validate(document)
        rules = {r["id"] for r in document["runs"][0]["tool"]["driver"]["rules"]}
        assert {"LA002", "LA003"} <= rules
        results = document["runs"][0]["results"]
        assert len(results) == len(result.findings)
        fingerprints = {r["partialFingerprints"][sarif.FINGERPRINT_KEY] for r in results}
        assert len(fingerprints) == len(results)
        out = io.StringIO()
        github.render(result, out)
        annotations = [line for line in out.getvalue().splitlines() if line.startswith("::error ")]
        assert len(annotations) == len(result.findings)
        assert all("\n" not in a for a in annotations)


def test_la002_over_several_pairs_reports_one_figure_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same host and device reached through two pairs (two call sites) give one finding,
    with both pairs' evidence."""
    import dataclasses

    from auditor.checks import la002_declared_size_mismatch as la002
    from auditor.location import Location
    from auditor.pairing.evidence import CALL_SITE, Evidence

    monkeypatch.chdir(REPO)
    settings = load_settings(None)
    result = audit([Path(f"{LA002}_buggy")], settings)
    [pair] = result.catalog.pairs
    [evaluation] = [e for e in result.evaluations if e.host is not None]
    elsewhere = Evidence(CALL_SITE, location=Location("elsewhere.py", 7), how="direct call")
    other = dataclasses.replace(pair, evidence=elsewhere)
    findings = la002.check_pairs([(pair, evaluation), (other, evaluation)], settings)
    assert len(findings) == 1
    assert findings[0].pairing == f"{pair.evidence.text()} | call site elsewhere.py:7"
