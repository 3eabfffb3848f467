"""A format text looked up in the code's own table, and inputs only the device is built from,
in a function that builds both pools (session 42, probe48 r02).

`setup(model, cache, world)` computes `plan = make_plan(model.kv_heads // world,
model.head_dim, cache.kind)`, where `make_plan` reads `_STORAGE[kind]`, builds `gpu =
RowPool(plan, ...)` and then `host = RowMirror.of(gpu, cache.host_rows)`. Before, `model` and
`world` (no default, nothing gives them, only the device built from them) were "arguments
the callers pass (not followed)", and `cache.kind`, sampled as a number, failed the lookup
with nothing tried: never compared. Now such inputs of a run that builds both pools are
stand-ins (read as objects, or as numbers where the function computes with them), and a
sample looked up in a table of texts is refused there as Python refuses it (KeyError), the
table's texts demanded and tried. Checked against the tensors the tree's own code builds on
the meta device."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from helpers import audit_json, finding_figures, tree_modules, write_tree


def _tree(host_row: str) -> dict[str, str]:
    return {
        "rows/__init__.py": "",
        "rows/plan.py": """
            from dataclasses import dataclass

            import torch

            _STORAGE = {"bf16": torch.bfloat16, "fp16": torch.float16,
                        "fp8": torch.float8_e4m3fn}


            @dataclass(frozen=True)
            class Plan:
                heads: int
                width: int
                dtype: torch.dtype


            def make_plan(heads: int, width: int, kind: str) -> Plan:
                return Plan(heads, width, _STORAGE[kind])
        """,
        "rows/pools.py": f"""
            import torch

            from .plan import Plan


            class RowPool:
                def __init__(self, plan: Plan, n_rows: int, n_layers: int, device="cuda"):
                    self.plan, self.n_layers = plan, n_layers
                    self.rows = [torch.empty((n_rows, plan.heads, plan.width), dtype=plan.dtype,
                                             device=device) for _ in range(n_layers)]


            class RowMirror(RowPool):
                # rows kept as raw bytes, one flat row a token

                @classmethod
                def of(cls, gpu: RowPool, n_rows: int, device="cpu") -> "RowMirror":
                    plan = gpu.plan
                    raw = Plan(1, {host_row}, torch.uint8)
                    return cls(raw, n_rows, gpu.n_layers, device=device)
        """,
        "rows/setup.py": """
            from .plan import make_plan
            from .pools import RowMirror, RowPool


            def setup(model, cache, world: int, device="cuda", host="cpu"):
                plan = make_plan(model.kv_heads // world, model.head_dim, cache.kind)
                gpu = RowPool(plan, cache.gpu_rows, model.n_layers, device=device)
                cpu = RowMirror.of(gpu, cache.host_rows, device=host)
                return gpu, cpu
        """,
    }


def _real(root, monkeypatch, kind):
    [setup] = tree_modules(root, monkeypatch, "rows", "setup")
    model = SimpleNamespace(kv_heads=8, head_dim=128, n_layers=2)
    cache = SimpleNamespace(kind=kind, gpu_rows=64, host_rows=32)
    gpu, cpu = setup.setup(model, cache, 2, device="meta", host="meta")
    return cpu.rows[0].nbytes // 32, gpu.rows[0].nbytes // 64


@pytest.mark.parametrize(
    "row, drifted",
    [
        ("plan.heads * plan.width * plan.dtype.itemsize", False),
        ("plan.heads * plan.width", True),  # bytes of one-byte formats only
    ],
)
def test_a_pair_built_from_a_looked_up_format_is_compared(
    tmp_path, capsys, monkeypatch, row, drifted
):
    root = write_tree(tmp_path, _tree(row))
    report = audit_json(root, capsys)
    summary = report["summary"]
    assert summary["pairs_compared"] == summary["pairs"] == 1
    for kind in ("bf16", "fp8"):
        host, device = _real(root, monkeypatch, kind)
        assert (host != device) == (drifted and kind == "bf16")
    figures = finding_figures(report)
    if not drifted:
        assert figures == {} and report["exit"] == 0
        return
    [finding] = report["findings"]
    assert "cache.kind" in finding["message"] or "config.kind" in finding["message"]
    host, device = figures["rows"]
    real_host, real_device = _real(root, monkeypatch, "bf16")
    assert host / device == real_host / real_device == 0.5


def test_a_flag_only_tested_is_not_stood_in_for(tmp_path, capsys):
    """`draft` (no default, nothing gives it) is only tested, `if draft:`: a stand-in, true
    as an object is, would choose the draft's plan unsaid. It stays the callers' value: the
    run is undecided there and the pair is not compared on a guess."""
    files = _tree("plan.heads * plan.width * plan.dtype.itemsize")
    files["rows/setup.py"] = """
        from .plan import make_plan
        from .pools import RowMirror, RowPool


        def setup(model, cache, world: int, draft, device="cuda", host="cpu"):
            plan = make_plan(model.kv_heads // world, model.head_dim, cache.kind)
            if draft:
                plan = make_plan(1, model.head_dim, cache.kind)
            gpu = RowPool(plan, cache.gpu_rows, model.n_layers, device=device)
            cpu = RowMirror.of(gpu, cache.host_rows, device=host)
            return gpu, cpu
    """
    root = write_tree(tmp_path, files)
    report = audit_json(root, capsys)
    assert report["findings"] == [] and report["summary"]["pairs_compared"] == 0
