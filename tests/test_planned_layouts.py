"""A prefill pool sized by a layout record a planner builds, beside a decode pool deriving
its own (session 40, probe46 r02).

- A layer count summed from two kinds (`arch.num_layers + arch.num_nextn_layers`) counts
  layers: the pools are recognised (before, neither was a pool: "no device pool found").
- A pool given an object the function builds on a line of its own from what the other pool is
  given (`layout = Planner.plan(arch, kv_cache_dtype)`) is built as the function builds both.
- A parameter nothing gives a value that the code treats as text (`kv_cache_dtype.startswith(
  "fp8")`, `kv_cache_dtype in ("fp8", "fp8_e4m3")`) is tried at the texts it is compared with.
- A record the code builds with arguments keeps its own defaults (`scale_dtype=torch.float32`
  of `LatentLayout(...)`); only a config built with its defaults alone stands for the point.

Checked against the tensors the tree's own code builds on torch's meta device.
"""

from __future__ import annotations

import pytest
from helpers import audit_json, built_by_the_tree, finding_figures, write_tree


def _tree(decode_block: str) -> dict[str, str]:
    return {
        "qs/__init__.py": "",
        "qs/arch.py": """
            class MLAArch:
                def __init__(self, hf):
                    self.num_layers = hf["num_hidden_layers"]
                    self.num_nextn_layers = hf.get("num_nextn_predict_layers", 0)
                    self.kv_lora_rank = hf["kv_lora_rank"]
                    self.qk_rope_head_dim = hf["qk_rope_head_dim"]
        """,
        "qs/layout.py": """
            from typing import NamedTuple

            import torch

            FP8_BLOCK = 128


            class LatentLayout(NamedTuple):
                latent_dim: int
                latent_dtype: torch.dtype
                rope_dim: int
                scale_groups: int
                scale_dtype: torch.dtype = torch.float32


            class Planner:
                @staticmethod
                def plan(arch, kv_cache_dtype: str) -> LatentLayout:
                    if kv_cache_dtype in ("fp8", "fp8_e4m3"):
                        return LatentLayout(arch.kv_lora_rank, torch.float8_e4m3fn,
                                            arch.qk_rope_head_dim,
                                            arch.kv_lora_rank // FP8_BLOCK)
                    return LatentLayout(arch.kv_lora_rank, torch.bfloat16,
                                        arch.qk_rope_head_dim, 0)
        """,
        "qs/pools.py": f"""
            import torch


            class PrefillPool:
                def __init__(self, arch, layout, num_slots, device):
                    layers = arch.num_layers + arch.num_nextn_layers
                    self.latent = [torch.empty((num_slots + 1, layout.latent_dim),
                                               dtype=layout.latent_dtype, device=device)
                                   for _ in range(layers)]
                    self.scale = [torch.empty((num_slots + 1, max(layout.scale_groups, 1)),
                                              dtype=layout.scale_dtype, device=device)
                                  for _ in range(layers)]


            class DecodePool:
                def __init__(self, arch, kv_cache_dtype: str, num_slots, device):
                    fp8 = kv_cache_dtype.startswith("fp8")
                    dtype = torch.float8_e4m3fn if fp8 else torch.bfloat16
                    groups = arch.kv_lora_rank // {decode_block} if fp8 else 1
                    layers = arch.num_layers + arch.num_nextn_layers
                    self.latent = [torch.empty((num_slots + 1, arch.kv_lora_rank), dtype=dtype,
                                               device=device) for _ in range(layers)]
                    self.scale = [torch.empty((num_slots + 1, groups), dtype=torch.float32,
                                              device=device) for _ in range(layers)]
        """,
        "qs/bootstrap.py": """
            from .arch import MLAArch
            from .layout import Planner
            from .pools import DecodePool, PrefillPool


            def bootstrap(hf, kv_cache_dtype: str, prefill_slots, decode_slots, device="cuda"):
                arch = MLAArch(hf)
                layout = Planner.plan(arch, kv_cache_dtype)
                prefill = PrefillPool(arch, layout, prefill_slots, device)
                decode = DecodePool(arch, kv_cache_dtype, decode_slots, device)
                return prefill, decode
        """,
    }


HF = {
    "num_hidden_layers": 4,
    "num_nextn_predict_layers": 1,
    "kv_lora_rank": 512,
    "qk_rope_head_dim": 64,
}


@pytest.mark.parametrize("decode_block, drifted", [("64", True), ("128", False)])
def test_a_planned_layout_and_a_derived_one_are_compared(
    tmp_path, capsys, monkeypatch, decode_block, drifted
):
    root = write_tree(tmp_path, _tree(decode_block))
    report = audit_json(root, capsys)
    assert report["summary"]["pairs"] == report["summary"]["pairs_compared"] == 1
    real = {}
    for kv in ("fp8", "fp8_e4m3", "auto"):
        prefill, decode = built_by_the_tree(
            root,
            monkeypatch,
            "qs",
            "bootstrap",
            "bootstrap",
            hf=HF,
            kv_cache_dtype=kv,
            prefill_slots=7,
            decode_slots=15,
            device="meta",
        )
        for name in ("latent", "scale"):
            real.setdefault(name, set()).add(
                (getattr(decode, name)[0].nbytes // 16, getattr(prefill, name)[0].nbytes // 8)
            )
    drift = {name for name, rows in real.items() if any(d != p for d, p in rows)}
    assert bool(drift) == drifted
    figures = finding_figures(report)
    assert set(figures) == drift
    for name in drift:  # (the audit's latent width is its own sample: the ratio is the tree's)
        host, device = figures[name]
        assert host / device in {d / p for d, p in real[name] if d != p}
    if drifted:
        message = next(f["message"] for f in report["findings"])
        assert "kv_cache_dtype=fp8/fp8_e4m3: texts the code compares it with" in message


def _roles_of(first: str, second: str):
    import ast
    import textwrap

    from auditor.frontend.behaviour import (
        constructor,
        infer_roles,
        methods_of,
        params_of,
        read_facts,
    )

    source = textwrap.dedent(f"""
        class Store:
            def __init__(self, num_tokens, {first}, {second}):
                n = {first} + {second}
                self.rows = [torch.zeros((num_tokens, 64)) for _ in range(n)]
    """)
    node = ast.parse(source).body[-1]
    return infer_roles(read_facts(methods_of(node), params_of(constructor(node))))


def test_a_tie_is_broken_only_between_counts_saying_layers():
    """Counts looped over together pick one only where each says layers (a sum of two
    kinds of layers); `range(gpu_id + nccl_port)` counts no layers (a worker, no pool:
    SGLang 0.5.23's DFlashWorkerV2 was taken for one by a first version)."""
    assert _roles_of("gpu_id", "nccl_port") is None
    found = _roles_of("num_full_layers", "num_swa_layers")
    assert found is not None and found.tokens == "num_tokens"
    assert found.layers in ("num_full_layers", "num_swa_layers")
