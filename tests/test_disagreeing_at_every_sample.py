"""Two sides that disagree at every sample of a free parameter (session 42, probe48 r06): a
mixin allocating fp32 scales one a head where the device class says so (`scale_axis =
"head"`) and one a token where the swap class keeps the mixin's default. Both take the head
count nothing gives (`kv_heads=model.num_key_value_heads // tp`), so it is sampled; the
device's scales vary with it and the host's do not, so they do not keep one ratio, and the
device's figure was unresolved ("depend on kv_heads"): the pair compared clean. Where the two
figures differ at every sample, the finding stands at the samples, saying so (and never "for
any value"); where they agree at one, the buffer stays unresolved, naming the parameter."""

from __future__ import annotations

import json
import textwrap
from types import SimpleNamespace

import pytest
from helpers import audit_json, finding_figures, tree_modules, write_tree

from auditor.cli import main


def _tree(swap_body: str) -> dict[str, str]:
    swap_body = textwrap.indent(swap_body, " " * 16).lstrip()
    return {
        "qkv/__init__.py": "",
        "qkv/scales.py": """
            import torch


            class RowScales:
                scale_axis = "token"

                def _scale_cols(self):
                    if self.scale_axis == "head":
                        return self.kv_heads
                    return 1

                def _make_scales(self, rows, device):
                    cols = self._scale_cols()
                    self.k_scale = [torch.ones((rows, cols), dtype=torch.float32,
                                               device=device) for _ in range(self.num_layers)]
        """,
        "qkv/caches.py": f"""
            import torch

            from .scales import RowScales


            class GpuRows(RowScales):
                scale_axis = "head"

                def __init__(self, rows, num_layers, kv_heads, head_dim, device="cuda"):
                    self.num_layers, self.kv_heads = num_layers, kv_heads
                    self.k_rows = [torch.empty((rows, kv_heads, head_dim),
                                               dtype=torch.float8_e4m3fn, device=device)
                                   for _ in range(num_layers)]
                    self._make_scales(rows, device)


            class SwapRows(RowScales):
                {swap_body}
                def __init__(self, rows, num_layers, kv_heads, head_dim, device="cpu"):
                    self.num_layers, self.kv_heads = num_layers, kv_heads
                    self.k_rows = [torch.empty((rows, kv_heads * head_dim), dtype=torch.uint8,
                                               device=device) for _ in range(num_layers)]
                    self._make_scales(rows, device)
        """,
        "qkv/build.py": """
            from .caches import GpuRows, SwapRows


            def build(model, opts, device="cuda", swap_device="cpu"):
                heads = model.num_key_value_heads // opts.tp
                gpu = GpuRows(opts.gpu_rows, model.num_hidden_layers, heads, model.head_dim,
                              device=device)
                swap = SwapRows(opts.swap_rows, model.num_hidden_layers, heads,
                                model.head_dim, device=swap_device)
                return gpu, swap
        """,
    }


def _real(root, monkeypatch):
    [build] = tree_modules(root, monkeypatch, "qkv", "build")
    model = SimpleNamespace(num_key_value_heads=8, num_hidden_layers=2, head_dim=128)
    opts = SimpleNamespace(tp=1, gpu_rows=64, swap_rows=32)
    gpu, swap = build.build(model, opts, device="meta", swap_device="meta")
    return swap.k_scale[0].nbytes // 32, gpu.k_scale[0].nbytes // 64


@pytest.mark.parametrize("body, drifted", [('scale_axis = "head"\n', False), ("pass\n", True)])
def test_scales_apart_at_every_head_count_are_reported(
    tmp_path, capsys, monkeypatch, body, drifted
):
    root = write_tree(tmp_path, _tree(body))
    report = audit_json(root, capsys)
    summary = report["summary"]
    assert summary["pairs_compared"] == summary["pairs"] == 1
    host, device = _real(root, monkeypatch)
    assert (host != device) == drifted
    figures = finding_figures(report)
    if not drifted:
        assert figures == {} and summary["unresolved"] == 0
        return
    assert set(figures) == {"k_scale"}
    [finding] = report["findings"]
    assert "host and device disagree at every sample" in finding["message"]
    assert "holds for any" not in finding["message"]
    # the audit's figure is at a sampled head count; the truth's at the model's 8 heads:
    # the host keeps one fp32 scale a token at any count
    assert figures["k_scale"][0] == host == 4
    assert figures["k_scale"][1] % device == 0


def test_sides_agreeing_at_one_sample_stay_unresolved(tmp_path, capsys):
    """The host's scales capped at 16 columns: equal to the device's at 16 heads, not at 64.
    No finding, and the figure is unresolved naming the parameter."""
    body = "    def _scale_cols(self):\n        return min(self.kv_heads, 16)\n"
    root = write_tree(tmp_path, _tree(body))
    code = main(
        [str(root), "--no-cache", "--isolated", "--output-format", "json", "--show-unresolved"]
    )
    report = json.loads(capsys.readouterr().out)
    assert report["findings"] == [] and code == 0
    text = " ".join(item["reason"] for item in report["unresolved"])
    assert "depend on kv_heads" in text
