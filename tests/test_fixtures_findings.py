"""End to end: the CLI on every buggy/fixed fixture pair under fixtures/.

Each buggy tree must give exactly one LA001, with both classes, both buffers, both byte figures
and the config points where it shows; each fixed tree must give none.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Expected:
    """The one finding a buggy fixture must give."""

    fixture: str  # folder name without the _buggy / _fixed suffix
    host_class: str
    host_buffer: str
    device_class: str
    device_buffer: str
    host_bytes: int  # bytes per token per layer at the first point where it shows
    device_bytes: int
    where: str  # the condition as the message states it
    first_config: dict[str, Any]  # the first config point where it shows (varied dimensions)
    shows: Callable[[dict[str, Any]], bool]  # which of the evaluated points show it
    figures: Callable[[dict[str, Any]], tuple[int, int]]  # (host, device) at such a point
    points_evaluated: int
    points_showing: int
    # where the finding is reported when not at the host formula: the call site's file (the
    # call site's arguments make the difference), and the argument the message must name
    at_site: str | None = None
    argument: str | None = None
    host_file: str = "memory_pool_host.py"  # below sglang/srt/mem_cache/
    also: tuple[str, ...] = ()  # codes of the other findings the buggy tree gives


def _same(host: int, device: int) -> Callable[[dict[str, Any]], tuple[int, int]]:
    return lambda config: (host, device)


def _mha_figures(config: dict[str, Any]) -> tuple[int, int]:
    # 8 heads; host 2 x head_dim (192), device head_dim + v_head_dim (192 + 128)
    itemsize = 1 if config["dtype"].startswith("float8") else 2
    return 2 * 8 * 192 * itemsize, 8 * (192 + 128) * itemsize


CASES = [
    Expected(
        fixture="incident",
        host_class="MLATokenToKVPoolHost",
        host_buffer="index_k_with_scale_buffer",
        device_class="DeepSeekV4TokenToKVPool",
        device_buffer="index_k_with_scale_buffer",
        host_bytes=132,
        device_bytes=256,
        where="index_k_dtype=bfloat16",
        first_config={
            "dtype": "bfloat16",
            "index_k_dtype": "bfloat16",
            "layout": "layer_first",
            "page_size": 1,
        },
        shows=lambda config: config["index_k_dtype"] == "bfloat16",
        figures=_same(132, 256),
        points_evaluated=48,
        points_showing=16,
    ),
    Expected(
        fixture="mha_v_head_dim",
        host_class="MHATokenToKVPoolHost",
        host_buffer="kv_buffer",
        device_class="MHATokenToKVPool",
        device_buffer="k_buffer + v_buffer",
        host_bytes=6144,
        device_bytes=5120,
        where="head_dim=192",
        first_config={
            "dtype": "bfloat16",
            "head_dim": 192,
            "layout": "layer_first",
            "page_size": 1,
        },
        shows=lambda config: config["head_dim"] == 192,
        figures=_mha_figures,
        points_evaluated=48,
        points_showing=16,
    ),
    Expected(
        fixture="nsa_fp8_kv",
        host_class="MLATokenToKVPoolHost",
        host_buffer="kv_buffer",
        device_class="NSATokenToKVPool",
        device_buffer="kv_buffer",
        host_bytes=576,
        device_bytes=656,
        where="dtype=float8_e4m3fn",
        first_config={"dtype": "float8_e4m3fn", "layout": "layer_first", "page_size": 1},
        shows=lambda config: config["dtype"] == "float8_e4m3fn",
        figures=_same(576, 656),
        points_evaluated=24,
        points_showing=4,
    ),
    Expected(
        fixture="mla_fp4_kv",
        host_class="MLATokenToKVPoolHost",
        host_buffer="kv_buffer",
        device_class="MLATokenToKVPoolFP4",
        device_buffer="kv_buffer",
        host_bytes=576,
        device_bytes=288,
        where="every config point",
        first_config={"dtype": "bfloat16", "layout": "layer_first", "page_size": 1},
        shows=lambda config: True,
        figures=_same(576, 288),
        points_evaluated=24,
        points_showing=16,
        also=("LA003",),  # the fp4 scale buffer has no host counterpart either
    ),
    Expected(
        # SGLang 0.5.23 shape: the host size is declared in data (HostPoolDecl) and the device
        # buffer is built by IndexKeyCache through a back-reference, exposed by a property
        fixture="dsa_declared",
        host_class="DSAIndexerPoolHost",
        host_buffer="index_k_with_scale_buffer",
        device_class="DSATokenToKVPool",
        device_buffer="index_k_with_scale_buffer",
        host_bytes=132,
        device_bytes=256,
        where="index_k_dtype=bfloat16",
        first_config={"dtype": "bfloat16", "index_k_dtype": "bfloat16", "page_size": 1},
        shows=lambda config: config["index_k_dtype"] == "bfloat16",
        figures=_same(132, 256),
        points_evaluated=16,
        points_showing=8,
        host_file="pool_host/dsa.py",
    ),
    Expected(
        fixture="forgotten_override",
        host_class="MLATokenToKVPoolHost",
        host_buffer="kv_buffer",
        device_class="NSATokenToKVPool",
        device_buffer="kv_buffer",
        host_bytes=576,
        device_bytes=656,
        where="dtype=float8_e4m3fn",
        first_config={"dtype": "float8_e4m3fn", "layout": "layer_first", "page_size": 1},
        shows=lambda config: config["dtype"] == "float8_e4m3fn",
        figures=_same(576, 656),
        points_evaluated=24,
        points_showing=4,
        at_site="sglang/srt/mem_cache/decode_offload.py",
        argument="override_kv_cache_dim",
    ),
    Expected(
        fixture="factory_dict",
        host_class="MLATokenToKVPoolHost",
        host_buffer="kv_buffer",
        device_class="MLATokenToKVPoolFP4",
        device_buffer="kv_buffer",
        host_bytes=576,
        device_bytes=288,
        where="every config point",
        first_config={"dtype": "bfloat16", "layout": "layer_first", "page_size": 1},
        shows=lambda config: True,
        figures=_same(576, 288),
        points_evaluated=24,
        points_showing=16,
        also=("LA003",),  # the fp4 scale buffer has no host counterpart either
    ),
    Expected(
        fixture="buffer_info",  # the host takes the device's MHABufferInfo, not the device
        host_class="MHATokenToKVPoolHost",
        host_buffer="k_buffer",
        device_class="MHATokenToKVPool",
        device_buffer="k_buffer",
        host_bytes=2048,  # 8 heads x 128 x float16
        device_bytes=1024,  # 8 heads x 128 x float8_e5m2
        where="dtype=float8_e5m2",
        first_config={"dtype": "float8_e5m2", "page_size": 1},
        shows=lambda config: config["dtype"] == "float8_e5m2",
        figures=_same(2048, 1024),
        points_evaluated=8,
        points_showing=2,
    ),
    Expected(
        fixture="page_rows",  # the host keeps the device's byte rows under its own name
        host_class="PageRowKVPoolHost",
        host_buffer="kv_buffer",
        device_class="PageRowKVPool",
        device_buffer="slab",
        host_bytes=1152,  # K and V payload and scales, 8 heads x 128, unpadded
        device_bytes=1280,  # each of the four parts padded to 128 bytes at page size 1
        where="page_size=1",
        first_config={"dtype": "bfloat16", "page_size": 1},
        shows=lambda config: config["page_size"] == 1,
        figures=_same(1152, 1280),
        points_evaluated=8,
        points_showing=4,
        at_site=None,
    ),
    Expected(
        fixture="assembly_kwargs",  # run through build_kv_host_pool: dicts, helper, factory
        host_class="MLATokenToKVPoolHost",
        host_buffer="kv_buffer",
        device_class="MLATokenToKVPool",
        device_buffer="kv_buffer",
        host_bytes=576,
        device_bytes=656,
        where="dtype in {float8_e4m3fn, float8_e5m2}, kv_cache_dim=656",
        first_config={"dtype": "float8_e4m3fn", "page_size": 1, "kv_cache_dim": 656},
        shows=lambda config: config["kv_cache_dim"] == 656 and config["dtype"].startswith("float8"),
        figures=_same(576, 656),
        points_evaluated=16,
        points_showing=4,
        host_file="memory_pool_host.py",
        at_site="sglang/srt/mem_cache/host_assembly.py",
        argument="override_kv_cache_dim",
    ),
]
IDS = [case.fixture for case in CASES]
# fixture pairs of the other checks, tested in tests/test_checks_la002_la003.py
OTHER_CHECK_FIXTURES = ["la002_size_per_token", "la003_scale_buffer"]
# vLLM fixture pairs (LA2xx), tested in tests/test_vllm.py and tests/test_vllm_views.py
VLLM_FIXTURES = ["vllm_backend_view", "vllm_hybrid_mla"]


def fixture_pairs() -> list[str]:
    """Every `<name>_buggy` folder under fixtures/ that has a `<name>_fixed` twin."""
    root = REPO / "fixtures"
    return sorted(
        path.name.removesuffix("_buggy")
        for path in root.glob("*_buggy")
        if (root / (path.name.removesuffix("_buggy") + "_fixed")).is_dir()
    )


def run_cli(path: str, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "auditor", path, *extra],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )


def run_json(path: str) -> tuple[int, list[dict[str, Any]]]:
    done = run_cli(path, "--output-format", "json")
    assert done.returncode in (0, 1), done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, json.loads(done.stdout)["findings"]


def test_every_fixture_pair_has_an_expected_finding() -> None:
    """A new fixture pair under fixtures/ must be added to CASES (and so to these tests)."""
    assert fixture_pairs() == sorted(IDS + OTHER_CHECK_FIXTURES + VLLM_FIXTURES)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_buggy_fixture_gives_exactly_the_expected_finding(case: Expected) -> None:
    code, findings = run_json(f"fixtures/{case.fixture}_buggy")
    assert code == 1
    assert sorted(f["code"] for f in findings if f["code"] != "LA001") == sorted(case.also)
    findings = [f for f in findings if f["code"] == "LA001"]
    assert len(findings) == 1, json.dumps(findings, indent=2)
    [finding] = findings
    assert finding["code"] == "LA001"
    host, device = finding["host"], finding["device"]
    assert (host["class"], host["buffer"]) == (case.host_class, case.host_buffer)
    assert (device["class"], device["buffer"]) == (case.device_class, case.device_buffer)
    assert (host["bytes_per_token"], device["bytes_per_token"]) == (
        case.host_bytes,
        case.device_bytes,
    )
    assert host["path"].endswith(f"sglang/srt/mem_cache/{case.host_file}")
    assert device["path"].endswith("sglang/srt/mem_cache/memory_pool.py")
    if case.at_site is None:  # the host class itself disagrees: reported at its formula
        assert finding["path"] == host["path"] and finding["line"] == host["line"]
    else:  # the arguments of one call site make the difference: reported there
        assert finding["path"].endswith(case.at_site)
        site = finding["pairing_evidence"]["site"]
        assert (site["path"], site["line"]) == (finding["path"], finding["line"])
        assert f"{case.argument} is not passed here" in finding["message"]
    # where it shows: the first point, every point listed, and the condition in the message
    assert finding["config"] == case.first_config
    assert finding["points_evaluated"] == case.points_evaluated
    points = finding["points"]
    assert len(points) == case.points_showing
    assert points[0]["config"] == case.first_config
    for point in points:
        assert case.shows(point["config"]), point
        assert (point["host_bytes_per_token"], point["device_bytes_per_token"]) == case.figures(
            point["config"]
        )
    message = finding["message"]
    assert f"{case.host_bytes} B/token/layer vs {case.device_bytes} B/token/layer" in message
    assert f"at {case.where} ({case.points_showing} of " in message
    assert f"host {case.host_class}.{case.host_buffer}" in message
    assert f"device {case.device_class}.{case.device_buffer}" in message


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_fixed_fixture_gives_no_finding(case: Expected) -> None:
    code, findings = run_json(f"fixtures/{case.fixture}_fixed")
    assert (code, findings) == (0, [])


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_text_output(case: Expected) -> None:
    buggy = run_cli(f"fixtures/{case.fixture}_buggy")
    assert buggy.returncode == 1, buggy.stderr
    lines = [line for line in buggy.stdout.splitlines() if " LA001 " in line]
    assert len(lines) == 1, buggy.stdout
    [line] = lines
    site_file = case.at_site or f"sglang/srt/mem_cache/{case.host_file}"
    assert line.startswith(f"fixtures/{case.fixture}_buggy/{site_file}:")
    assert str(case.host_bytes) in line and str(case.device_bytes) in line
    assert case.where in line
    found = 1 + len(case.also)
    assert f"Found {found} finding{'s' if found > 1 else ''}" in buggy.stderr

    fixed = run_cli(f"fixtures/{case.fixture}_fixed")
    assert fixed.returncode == 0, fixed.stderr
    assert "LA001" not in fixed.stdout
    assert "Found 0 findings" in fixed.stderr


def test_incident_text_output_names_both_figures_and_the_config() -> None:
    done = run_cli("fixtures/incident_buggy")
    assert done.returncode == 1, done.stderr
    assert "132" in done.stdout
    assert "256" in done.stdout
    assert "index_k_dtype=bfloat16" in done.stdout


def test_fixture_matrix_comes_from_the_fixture_pyproject() -> None:
    """mha_v_head_dim only shows its bug at head_dim=192, which its own pyproject.toml adds to
    the matrix; --isolated (bundled pack only) must therefore not see it."""
    done = run_cli("fixtures/mha_v_head_dim_buggy", "--isolated", "--output-format", "json")
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["findings"] == []


def test_auditing_all_fixtures_at_once_keeps_each_tree_apart() -> None:
    """Eight trees share module names (`sglang.srt.mem_cache.memory_pool`); each host must
    still pair with the device pools of its own tree, and no tree may be dropped."""
    done = subprocess.run(
        [sys.executable, "-m", "auditor", "fixtures", "--isolated", "--output-format", "json"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    findings = json.loads(done.stdout)["findings"]
    trees = sorted({Path(f["path"]).parts[1] for f in findings})
    # mha_v_head_dim needs its own pyproject (head_dim = 192) to show; --isolated hides it
    assert trees == [
        "assembly_kwargs_buggy",
        "buffer_info_buggy",
        "dsa_declared_buggy",
        "factory_dict_buggy",
        "forgotten_override_buggy",
        "incident_buggy",
        "la002_size_per_token_buggy",
        "la003_scale_buffer_buggy",
        "mla_fp4_kv_buggy",
        "never_run",
        "nsa_fp8_kv_buggy",
        "page_rows_buggy",
        "vllm_backend_view_buggy",
        "vllm_hybrid_mla_buggy",
        "zero_config",  # its trees one level down: fixtures/zero_config/<tree>
    ]

    def tree_of(path: str) -> tuple[str, ...]:
        parts = Path(path).parts
        return parts[1:3] if parts[1] == "zero_config" else parts[1:2]

    zero_config = {
        tree_of(f["path"])[-1] for f in findings if tree_of(f["path"])[0] == "zero_config"
    }
    assert zero_config and all(name.endswith("_buggy") for name in zero_config), zero_config
    for finding in findings:
        tree = tree_of(finding["path"])
        assert tree_of(finding["device"]["path"]) == tree
