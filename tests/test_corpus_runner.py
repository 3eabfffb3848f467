"""The corpus runner's offline parts: unpacking a cached wheel, the table, the markdown file."""

from __future__ import annotations

import importlib.util
import zipfile
from pathlib import Path

RUNNER = Path(__file__).resolve().parent.parent / "bench" / "corpus.py"


def _runner():
    spec = importlib.util.spec_from_file_location("corpus_runner_offline", RUNNER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_fetch_unpacks_srt_and_kernels_of_a_cached_wheel_once(tmp_path):
    runner = _runner()
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    with zipfile.ZipFile(wheels / "sglang-9.9-py3-none-any.whl", "w") as wheel:
        wheel.writestr("sglang/srt/mem_cache/pool.py", "X = 1\n")
        wheel.writestr("sglang/kernels/layout.py", "Y = 2\n")
        wheel.writestr("sglang/test/test_x.py", "Z = 3\n")
        wheel.writestr("sglang/srt/README.md", "not python\n")
    trees = runner.fetch("9.9", cache=tmp_path)
    assert trees == [tmp_path / "9.9" / "sglang/srt/", tmp_path / "9.9" / "sglang/kernels/"]
    assert (trees[0] / "mem_cache" / "pool.py").read_text() == "X = 1\n"
    assert not (tmp_path / "9.9" / "sglang" / "test").exists()
    assert not (trees[0] / "README.md").exists()
    (trees[0] / "mem_cache" / "pool.py").write_text("changed\n")
    assert runner.fetch("9.9", cache=tmp_path) == trees  # unpacked once
    assert (trees[0] / "mem_cache" / "pool.py").read_text() == "changed\n"


def _row(**overrides) -> dict:
    row = {
        "version": "9.9",
        "files": 10,
        "device_pools": 2,
        "host_pools": 1,
        "pairs": 1,
        "pairs_compared": 0,
        "pairs_not_compared": ["Host <- Pool (call site a.py:3): no feasible config point: x"],
        "buffers": 4,
        "resolved": 3,
        "mem_cache_buffers": 3,
        "mem_cache_resolved": 3,
        "mem_cache_unresolved": ["Pool.k_buffer: missing argument 'x' to __init__()"],
        "mem_cache_infeasible": ["Other: raises ValueError('no')"],
        "findings": {"LA001": 1},
        "finding_lines": ["a.py:1:1: LA001 kv_buffer: host and device disagree"],
        "top_unresolved": [("missing argument … to __init__()", 1)],
        "wall": 1.5,
        "peak_mb": 100,
    }
    row.update(overrides)
    return row


def test_the_table_shows_rates_pools_built_at_no_point_and_every_unresolved_buffer():
    text = _runner().table([_row(hosts_never_paired=["Lone (b.py:2): no annotation"])])
    assert (
        "| 9.9 | 10 | 2 / 1 | 1 | 0/1 (0%) | 0 | 1 | 0 | 3/4 (75%) | 3/3 (100%) | 1 | LA001: 1 "
        "| 1.5 s | 100 MB |" in text
    )
    assert "host never paired: Lone (b.py:2): no annotation" in text
    assert "pair not compared: Host <- Pool (call site a.py:3): no feasible config point" in text
    assert "unresolved mem_cache buffer: Pool.k_buffer: missing argument 'x'" in text
    assert "mem_cache pool built at no config point: Other: raises ValueError('no')" in text
    assert "finding: `a.py:1:1: LA001" in text


def test_regenerating_the_markdown_keeps_what_was_written_by_hand(tmp_path):
    runner = _runner()
    target = tmp_path / "corpus.md"
    runner.write_markdown(target, "| first table |\n")
    assert "| first table |" in target.read_text()
    target.write_text(target.read_text() + "\n" + runner.KEEP_BELOW + "\n\nWhat blocks: x.\n")
    runner.write_markdown(target, "| second table |\n")
    text = target.read_text()
    assert "| second table |" in text and "| first table |" not in text
    assert text.endswith(runner.KEEP_BELOW + "\n\nWhat blocks: x.\n")
