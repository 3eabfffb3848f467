"""Pools keeping one record per layer (session 42, probe48 r03): `self.layers =
[PageSlab(k=..., v=...) for _ in range(depth)]`, a dataclass of the tree holding each layer's
K and V pages. Only a record held directly was read as storage (`self.cache = State(...)`), so
such a pool held "no buffers" and its pair was never compared. Each field of the records, over
the layers, is now a per-layer buffer (`layers.k`). Checked against the tensors the tree's own
code builds on torch's meta device."""

from __future__ import annotations

import pytest
from helpers import audit_json, finding_figures, tree_modules, write_tree


def _tree(host_width: str) -> dict[str, str]:
    return {
        "slabs/__init__.py": "",
        "slabs/pools.py": f"""
            from dataclasses import dataclass

            import torch


            @dataclass
            class LayerPages:
                keys: torch.Tensor
                values: torch.Tensor


            class GpuPages:
                def __init__(self, n_pages: int, tokens_per_page: int, n_layers: int,
                             kv_heads: int, head_dim: int, dtype, device="cuda"):
                    self.tokens_per_page = tokens_per_page
                    self.kv_heads, self.head_dim, self.dtype = kv_heads, head_dim, dtype
                    shape = (n_pages, tokens_per_page, kv_heads, head_dim)
                    self.per_layer = [
                        LayerPages(keys=torch.empty(shape, dtype=dtype, device=device),
                                   values=torch.empty(shape, dtype=dtype, device=device))
                        for _ in range(n_layers)
                    ]


            class CpuPages:
                def __init__(self, gpu_pages: GpuPages, n_pages: int, tokens_per_page: int,
                             device="cpu"):
                    self.tokens_per_page = tokens_per_page
                    shape = (n_pages, gpu_pages.kv_heads, tokens_per_page, {host_width})
                    self.per_layer = [
                        LayerPages(keys=torch.empty(shape, dtype=gpu_pages.dtype, device=device),
                                   values=torch.empty(shape, dtype=gpu_pages.dtype,
                                                      device=device))
                        for _ in gpu_pages.per_layer
                    ]
        """,
        "slabs/boot.py": """
            import torch

            from .pools import CpuPages, GpuPages


            def boot(cfg, gpu_pages=512, cpu_pages=64, device="cuda", host="cpu"):
                gpu = GpuPages(gpu_pages, 16, cfg["layers"], cfg["kv_heads"], cfg["head_dim"],
                               torch.bfloat16, device=device)
                cpu = CpuPages(gpu, cpu_pages, 64, device=host)
                return gpu, cpu
        """,
    }


@pytest.mark.parametrize(
    "width, drifted", [("gpu_pages.head_dim", False), ("gpu_pages.head_dim // 2", True)]
)
def test_records_per_layer_are_buffers(tmp_path, capsys, monkeypatch, width, drifted):
    root = write_tree(tmp_path, _tree(width))
    report = audit_json(root, capsys)
    summary = report["summary"]
    assert summary["pairs_compared"] == summary["pairs"] == 1
    [boot] = tree_modules(root, monkeypatch, "slabs", "boot")
    gpu, cpu = boot.boot({"layers": 2, "kv_heads": 8, "head_dim": 128}, device="meta", host="meta")
    real = {
        field: tuple(
            getattr(pool.per_layer[0], field).nbytes // (pages * per_page)
            for pool, pages, per_page in ((cpu, 64, 64), (gpu, 512, 16))
        )
        for field in ("keys", "values")
    }
    assert all((host != device) == drifted for host, device in real.values())
    figures = finding_figures(report)
    if not drifted:
        assert figures == {} and report["exit"] == 0
        return
    assert set(figures) == {"per_layer.keys", "per_layer.values"}
    for field in ("keys", "values"):
        host, device = figures[f"per_layer.{field}"]
        assert host / device == real[field][0] / real[field][1] == 0.5
