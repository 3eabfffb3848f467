"""Two block caches built beside each other from one argument tuple, a layout strategy the
building function looks up among them (session 42, probe47 r06).

`build_caches(...)` does `layout = pick_layout(layout_name)` and then builds `DeviceBlocks(
*shared, ...)` and `SwapBlocks(*shared, ...)`; each shapes its blocks by
`self.layout.block_shape(...)`. Measured on their own, both took a sample where the strategy
goes ("attribute 'block_shape' of int") and the pair was never compared. An object both pools
take from a function of the building function, read by them as an object no config supplies,
is now what that function computes: the function is run, as for pools built by different
paths. Checked against the tensors the tree's own code builds on the meta device.
"""

from __future__ import annotations

import pytest
from helpers import audit_json, finding_figures, tree_modules, write_tree


def _tree(swap_dtype: str) -> dict[str, str]:
    return {
        "sc/__init__.py": "",
        "sc/settings.py": """
            from dataclasses import dataclass

            import torch


            @dataclass
            class StoreConfig:
                tokens_per_block: int = 32
                gpu_blocks: int = 256
                swap_blocks: int = 64


            class ModelShape:
                def __init__(self, raw):
                    self.raw = raw

                def kv_heads(self, world: int) -> int:
                    return max(1, self.raw["num_key_value_heads"] // world)

                def head_width(self) -> int:
                    return self.raw["head_dim"]

                def depth(self) -> int:
                    return self.raw["num_hidden_layers"]
        """,
        "sc/layouts.py": """
            class SplitKV:
                @staticmethod
                def block_shape(blocks, per_block, heads, width):
                    return (2, blocks, per_block, heads, width)


            class FusedKV:
                @staticmethod
                def block_shape(blocks, per_block, heads, width):
                    return (blocks, 2 * per_block * heads * width)


            _LAYOUTS = {"split": SplitKV, "fused": FusedKV}


            def pick_layout(name: str):
                return _LAYOUTS[name]
        """,
        "sc/blocks.py": f"""
            import torch

            from .settings import ModelShape, StoreConfig


            class _Blocks:
                def __init__(self, shape: ModelShape, store_cfg: StoreConfig, world: int,
                             layout, n_blocks: int, device: str):
                    self.tokens_per_block = store_cfg.tokens_per_block
                    self.heads = shape.kv_heads(world)
                    self.width = shape.head_width()
                    self.layers = shape.depth()
                    self.layout = layout
                    self.n_blocks = n_blocks
                    self.blocks = self._make(device)

                def _dtype(self):
                    return torch.bfloat16

                def _make(self, device):
                    dims = self.layout.block_shape(self.n_blocks, self.tokens_per_block,
                                                   self.heads, self.width)
                    return [torch.empty(dims, dtype=self._dtype(), device=device)
                            for _ in range(self.layers)]


            class DeviceBlocks(_Blocks):
                pass


            class SwapBlocks(_Blocks):
                def _dtype(self):
                    return {swap_dtype}
        """,
        "sc/engine.py": """
            from .blocks import DeviceBlocks, SwapBlocks
            from .layouts import pick_layout
            from .settings import StoreConfig


            def build_caches(shape, store_cfg: StoreConfig, world: int = 2,
                             layout_name: str = "split", device="cuda", swap_device="cpu"):
                layout = pick_layout(layout_name)
                shared = (shape, store_cfg, world, layout)
                gpu = DeviceBlocks(*shared, n_blocks=store_cfg.gpu_blocks, device=device)
                swap = SwapBlocks(*shared, n_blocks=store_cfg.swap_blocks, device=swap_device)
                return gpu, swap
        """,
    }


def _built_on_meta(root, monkeypatch):
    """Both caches as the tree's own `build_caches` builds them, on the meta device."""
    settings, engine = tree_modules(root, monkeypatch, "sc", "settings", "engine")
    shape = settings.ModelShape({"num_key_value_heads": 8, "head_dim": 128, "num_hidden_layers": 4})
    built = engine.build_caches(shape, settings.StoreConfig(), device="meta", swap_device="meta")
    return built


@pytest.mark.parametrize("dtype, drifted", [("torch.float16", False), ("torch.float32", True)])
def test_block_caches_sharing_a_looked_up_layout_are_compared(
    tmp_path, capsys, monkeypatch, dtype, drifted
):
    root = write_tree(tmp_path, _tree(dtype))
    report = audit_json(root, capsys)
    summary = report["summary"]
    assert summary["pairs_compared"] == summary["pairs"] == 1
    gpu, swap = _built_on_meta(root, monkeypatch)
    per_token = [
        pool.blocks[0].nbytes // (pool.n_blocks * pool.tokens_per_block) for pool in (swap, gpu)
    ]
    assert (per_token[0] != per_token[1]) == drifted
    figures = finding_figures(report)
    if not drifted:
        assert figures == {} and report["exit"] == 0
        return
    host, device = figures["blocks"]
    # the audit samples the heads and widths: the ratio of the dtypes holds at any of them
    assert host / device == per_token[0] / per_token[1] == 2
