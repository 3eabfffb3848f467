"""Device pools whose token count a byte budget buys (session 44): `self.size = free_bytes //
self.token_bytes()`, where the bytes of a token count every layer, so the rows a build holds
follow the layer count too and the builds' counts are no grid. The fit assumed one (tokens at
two values, layers at two): every buffer "not linear in tokens and layers", the pair never
compared (probe51/r04). Fitted now on the counts the pool keeps, checked on a fifth build.
The same tree keeps its scales in a dtype a settings property computes and reads its
`.itemsize`: that property is the dtype (run, or explored over the pack's dtypes), not an
object whose `itemsize` is a number to sample."""

from __future__ import annotations

import pytest
from helpers import audit_json, finding_figures, tree_modules, write_tree


def _tree(host_scale_dtype: str) -> dict[str, str]:
    return {
        "budgetkv/__init__.py": "",
        "budgetkv/settings.py": """
            import math
            from dataclasses import dataclass, field

            import torch


            @dataclass
            class Settings:
                model: dict = field(repr=False)
                group: int = 64

                @property
                def layers(self) -> int:
                    return self.model["num_hidden_layers"]

                @property
                def heads(self) -> int:
                    return self.model["num_key_value_heads"]

                @property
                def head_dim(self) -> int:
                    return self.model["head_dim"]

                @property
                def scale_dtype(self) -> torch.dtype:
                    if self.model.get("torch_dtype") == "bfloat16":
                        return torch.bfloat16
                    return torch.float16
        """,
        "budgetkv/device.py": """
            import torch


            class BudgetPool:
                def __init__(self, settings, free_bytes: int, device: str = "cuda"):
                    self.settings = settings
                    self.size = free_bytes // self.token_bytes()
                    s = settings
                    self.codes = [
                        torch.empty((self.size + 1, s.heads, s.head_dim), dtype=torch.int8,
                                    device=device)
                        for _ in range(s.layers)
                    ]
                    self.scales = [
                        torch.empty((self.size + 1, s.heads, s.head_dim // s.group),
                                    dtype=s.scale_dtype, device=device)
                        for _ in range(s.layers)
                    ]

                def token_bytes(self) -> int:
                    s = self.settings
                    per_layer = s.heads * s.head_dim + s.heads * (s.head_dim // s.group) * (
                        s.scale_dtype.itemsize
                    )
                    return per_layer * s.layers
        """,
        "budgetkv/host.py": f"""
            import torch


            class PinnedMirror:
                def __init__(self, device_pool, rows: int, device: str = "cpu"):
                    s = device_pool.settings
                    self.size = rows
                    self.codes = [
                        torch.empty((rows, s.heads, s.head_dim), dtype=torch.int8,
                                    device=device)
                        for _ in range(s.layers)
                    ]
                    self.scales = [
                        torch.empty((rows, s.heads, s.head_dim // s.group),
                                    dtype={host_scale_dtype}, device=device)
                        for _ in range(s.layers)
                    ]
        """,
        "budgetkv/setup.py": """
            from .device import BudgetPool
            from .host import PinnedMirror
            from .settings import Settings


            def make(model, free_bytes, host_rows, device="cuda", host="cpu"):
                gpu = BudgetPool(Settings(model), free_bytes, device=device)
                cpu = PinnedMirror(gpu, host_rows, device=host)
                return gpu, cpu
        """,
    }


@pytest.mark.parametrize(
    "scale_dtype, drifted", [("s.scale_dtype", False), ("torch.float32", True)]
)
def test_a_budget_sized_device_is_measured_and_its_host_compared(
    tmp_path, capsys, monkeypatch, scale_dtype, drifted
):
    root = write_tree(tmp_path, _tree(scale_dtype))
    report = audit_json(root, capsys)
    summary = report["summary"]
    assert summary["pairs_compared"] == summary["pairs"] == 1
    assert summary["unresolved"] == 0
    [setup] = tree_modules(root, monkeypatch, "budgetkv", "setup")
    model = {
        "num_hidden_layers": 4,
        "num_key_value_heads": 8,
        "head_dim": 128,
        "torch_dtype": "bfloat16",
    }
    gpu, cpu = setup.make(model, 1 << 24, 100, device="meta", host="meta")
    real = {
        name: (
            getattr(cpu, name)[0].nbytes // cpu.size,
            getattr(gpu, name)[0].nbytes // (gpu.size + 1),
        )
        for name in ("codes", "scales")
    }
    assert (real["scales"][0] != real["scales"][1]) == drifted
    assert real["codes"][0] == real["codes"][1]
    figures = finding_figures(report)
    if not drifted:
        assert figures == {} and report["exit"] == 0
        return
    assert set(figures) == {"scales"}
    host, device = figures["scales"]
    # at the finding's own point (sampled heads and dims): the ratio the meta device gives
    assert host * real["scales"][1] == device * real["scales"][0] and host > device
