"""Storages a pool names only when it runs: `setattr(self, name, torch.empty(...))` over the
keys of a plan (session 40, probe46 r05).

Syntax cannot list such a pool's buffers, so a pool built beside it from the same arguments
was never paired with it ("no host pool found", exit 0) though the run names them. Such a
pair is now compared by the names the run gives, where the plan the names come from (the
class's module or one it imports) writes a name the other pool allocates; where it writes
none, the pools are not paired (a first version paired them, and reported the device's
buffers as unmirrored). Checked against the tensors the
tree's own code builds on torch's meta device.
"""

from __future__ import annotations

import pytest
from helpers import audit_json, built_by_the_tree, finding_figures, write_tree


def _tree(host_scale_dtype: str, host_names: tuple[str, str] = ("k_scale", "v_scale")):
    k, v = host_names
    return {
        "rn/__init__.py": "",
        "rn/plan.py": """
            import torch


            class Planner:
                SCALE_DTYPE = torch.float32

                @classmethod
                def per_layer(cls, dtype, heads, head_dim):
                    specs = {"k_data": ((heads, head_dim), dtype),
                             "v_data": ((heads, head_dim), dtype)}
                    if dtype.itemsize == 1:
                        specs["k_scale"] = ((heads,), cls.SCALE_DTYPE)
                        specs["v_scale"] = ((heads,), cls.SCALE_DTYPE)
                    return specs
        """,
        "rn/pools.py": f"""
            import torch

            from .plan import Planner


            class Device:
                def __init__(self, dtype, layers, heads, head_dim, tokens, device):
                    for name, (tail, kind) in Planner.per_layer(dtype, heads, head_dim).items():
                        setattr(self, name, [torch.empty((tokens, *tail), dtype=kind,
                                                         device=device)
                                             for _ in range(layers)])


            class Mirror:
                def __init__(self, dtype, layers, heads, head_dim, tokens, device="cpu"):
                    self.k_data = [torch.empty((tokens, heads, head_dim), dtype=dtype,
                                               device=device) for _ in range(layers)]
                    self.v_data = [torch.empty((tokens, heads, head_dim), dtype=dtype,
                                               device=device) for _ in range(layers)]
                    if dtype.itemsize == 1:
                        self.{k} = [torch.empty((tokens, heads), dtype={host_scale_dtype},
                                                device=device) for _ in range(layers)]
                        self.{v} = [torch.empty((tokens, heads), dtype={host_scale_dtype},
                                                device=device) for _ in range(layers)]
        """,
        "rn/runtime.py": """
            import torch

            from .pools import Device, Mirror


            def build(dtype, heads, head_dim, tokens, device="cuda"):
                pool = Device(dtype, 4, heads, head_dim, tokens, device)
                mirror = Mirror(dtype, 4, heads, head_dim, 2 * tokens,
                                "meta" if device == "meta" else "cpu")
                return pool, mirror
        """,
    }


@pytest.mark.parametrize("scale_dtype, drifted", [("dtype", True), ("torch.float32", False)])
def test_storages_named_by_setattr_are_compared(
    tmp_path, capsys, monkeypatch, scale_dtype, drifted
):
    import torch

    root = write_tree(tmp_path, _tree(scale_dtype))
    report = audit_json(root, capsys)
    assert report["summary"]["pairs_compared"] == 1
    pool, mirror = built_by_the_tree(
        root,
        monkeypatch,
        "rn",
        "runtime",
        "build",
        dtype=torch.float8_e4m3fn,
        heads=8,
        head_dim=128,
        tokens=16,
        device="meta",
    )
    real = {
        name: (getattr(mirror, name)[0].nbytes // 32, getattr(pool, name)[0].nbytes // 16)
        for name in ("k_data", "v_data", "k_scale", "v_scale")
    }
    real_drift = {name for name, (m, d) in real.items() if m != d}
    assert bool(real_drift) == drifted
    figures = finding_figures(report)
    assert set(figures) == real_drift
    for name in real_drift:  # the dtypes' ratio: the audit's head count is its own sample
        host, device = figures[name]
        assert host / device == real[name][0] / real[name][1]


def test_a_plan_naming_none_of_the_others_storages_pairs_nothing(tmp_path, capsys):
    """Names that meet nowhere: no pair, so no false 'unmirrored' finding."""
    root = write_tree(tmp_path, _tree("torch.float32", ("stats", "counts")))
    files = {
        "rn/pools.py": (root / "rn/pools.py")
        .read_text()
        .replace("self.k_data", "self.k_rows")
        .replace("self.v_data", "self.v_rows")
    }
    write_tree(root, files)
    report = audit_json(root, capsys)
    assert report["findings"] == []
    assert report["summary"]["pairs"] == 0
