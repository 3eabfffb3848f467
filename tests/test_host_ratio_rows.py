"""A host holding a ratio of its device's tokens (evaluate._scaled_rows): `self.slots =
int(store.slots * cfg.host_ratio)`, a name saying it sizes the host's tier, is measured per row
it holds, in whatever position that dimension is; a factor of what a row holds (`kv_factor`:
K and V as rows of their own) is not taken for such a ratio. Trees derived from probe38/r01,
audited with no configuration."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from auditor.cli import main

R01 = Path(__file__).resolve().parent / "data" / "probe38" / "r01"
MIRROR = "tokenflow/common/cpu_mirror.py"
ROWS = "self.slots = int(device_store.slots * cfg.host_ratio)"
SHAPE = "(self.slots, self.n_layers, 2, self.kv_heads, self.head_size)"
HEADS = "self.kv_heads = cfg.kv_head_num // cfg.tp_world_size"


def variant(tmp_path: Path, rows: str, shape: str, config: str = "") -> Path:
    tree = tmp_path / "tree"
    shutil.copytree(R01, tree, ignore=shutil.ignore_patterns("README.txt"))
    mirror = tree / MIRROR
    text = mirror.read_text()
    assert text.count(ROWS) == text.count(SHAPE) == text.count(HEADS) == 1
    text = text.replace(ROWS, f"self.slots = {rows}").replace(SHAPE, shape)
    # heads as the device counts them, so that only the rows are in question
    text = text.replace(HEADS, "self.kv_heads = max(1, cfg.kv_head_num // cfg.tp_world_size)")
    mirror.write_text(text)
    if config:
        worker = tree / "tokenflow/worker_init.py"
        anchor = "    host_ratio: float = 2.0\n"
        worker.write_text(worker.read_text().replace(anchor, anchor + config + "\n"))
    return tree


def findings(tree: Path, capsys) -> list[dict]:
    main([str(tree), "--no-cache", "--isolated", "--output-format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert report["summary"]["pairs_compared"] == report["summary"]["pairs"] == 1
    return report["findings"]


def test_rows_a_host_ratio_times_the_tokens_are_counted_per_row(tmp_path, capsys):
    tree = variant(tmp_path, "int(device_store.slots * cfg.host_ratio)", SHAPE)
    assert findings(tree, capsys) == []


def test_the_rows_may_come_after_the_layers(tmp_path, capsys):
    shape = "(self.n_layers, self.slots, 2, self.kv_heads, self.head_size)"
    tree = variant(tmp_path, "int(device_store.slots * cfg.host_ratio)", shape)
    assert findings(tree, capsys) == []


def test_a_real_disagreement_stays_reported_per_row(tmp_path, capsys):
    shape = "(self.slots, self.n_layers, 2, self.kv_heads, 2 * self.head_size)"
    tree = variant(tmp_path, "int(device_store.slots * cfg.host_ratio)", shape)
    [finding] = findings(tree, capsys)
    assert finding["code"] == "LA001"
    assert finding["host"]["bytes_per_token"] == 2 * finding["device"]["bytes_per_token"]


def test_a_factor_of_what_a_row_holds_is_no_host_ratio(tmp_path, capsys):
    """`kv_factor` rows per token, each K or V alone: per device token, as the bytes are; at
    kv_factor=2 the two sides agree, a larger factor is reported."""
    shape = "(self.slots, self.n_layers, self.kv_heads, self.head_size)"
    tree = variant(tmp_path, "device_store.slots * cfg.kv_factor", shape, "    kv_factor: int = 2")
    for finding in findings(tree, capsys):
        assert all(p["config"]["WorkerKVConfig.kv_factor"] != 2 for p in finding["points"])
    hidden = variant(
        tmp_path / "hidden", "device_store.slots * cfg.kv_factor", SHAPE, "    kv_factor: int = 2"
    )
    [finding] = findings(hidden, capsys)  # K and V in every row, and kv_factor rows: 2x
    assert finding["code"] == "LA001"
