"""A pool the pack's names describe (`size`, `layer_num`) that also takes an object of a class
of the audited tree (`dims: AttnDims`) with no default, and reads its widths off it (session
44). Nothing gave that parameter a value: every buffer "missing argument 'dims'", the pair never
compared (probe51/r06). It is now a stand-in whose attributes are config values, its class's
properties run on it (`dims.qk_head_dim` from its fields), as for a pool counted off one."""

from __future__ import annotations

import pytest
from helpers import audit_json, finding_figures, tree_modules, write_tree


def _tree(host_v_width: str) -> dict[str, str]:
    return {
        "asymkv/__init__.py": "",
        "asymkv/dims.py": """
            class AttnDims:
                def __init__(self, num_heads: int, nope: int, rope: int, v_head_dim: int):
                    self.num_heads = num_heads
                    self.nope = nope
                    self.rope = rope
                    self.v_head_dim = v_head_dim

                @property
                def qk_head_dim(self) -> int:
                    return self.nope + self.rope
        """,
        "asymkv/device.py": """
            import torch

            from .dims import AttnDims


            class DevicePool:
                def __init__(self, dims: AttnDims, size: int, dtype: torch.dtype,
                             layer_num: int, device: str = "cuda"):
                    self.k_buffer = [
                        torch.zeros((size + 1, dims.num_heads, dims.qk_head_dim), dtype=dtype,
                                    device=device)
                        for _ in range(layer_num)
                    ]
                    self.v_buffer = [
                        torch.zeros((size + 1, dims.num_heads, dims.v_head_dim), dtype=dtype,
                                    device=device)
                        for _ in range(layer_num)
                    ]
        """,
        "asymkv/host.py": f"""
            import torch

            from .dims import AttnDims


            class HostPool:
                def __init__(self, dims: AttnDims, host_size: int, dtype: torch.dtype,
                             layer_num: int, device: str = "cpu"):
                    self.k_buffer = torch.empty(
                        (layer_num, host_size, dims.num_heads, dims.qk_head_dim), dtype=dtype,
                        device=device)
                    self.v_buffer = torch.empty(
                        (layer_num, host_size, dims.num_heads, {host_v_width}), dtype=dtype,
                        device=device)
        """,
        "asymkv/setup.py": """
            from .device import DevicePool
            from .dims import AttnDims
            from .host import HostPool


            def build(hf, args, device="cuda", host="cpu"):
                dims = AttnDims(hf["heads"] // args.tp, hf["nope"], hf["rope"], hf["v"])
                gpu = DevicePool(dims, args.tokens, args.dtype, hf["layers"], device=device)
                cpu = HostPool(dims, args.tokens * 2, args.dtype, hf["layers"], device=host)
                return gpu, cpu
        """,
    }


@pytest.mark.parametrize("width, drifted", [("dims.v_head_dim", False), ("dims.qk_head_dim", True)])
def test_a_named_pool_reading_widths_off_an_object_is_compared(
    tmp_path, capsys, monkeypatch, width, drifted
):
    from types import SimpleNamespace

    import torch

    root = write_tree(tmp_path, _tree(width))
    report = audit_json(root, capsys)
    summary = report["summary"]
    assert summary["pairs_compared"] == summary["pairs"] == 1
    assert summary["unresolved"] == 0
    [setup] = tree_modules(root, monkeypatch, "asymkv", "setup")
    hf = {"heads": 16, "nope": 128, "rope": 64, "v": 128, "layers": 2}
    args = SimpleNamespace(tp=2, tokens=32, dtype=torch.bfloat16)
    gpu, cpu = setup.build(hf, args, device="meta", host="meta")
    real = {
        name: (getattr(cpu, name)[0].nbytes // 64, getattr(gpu, name)[0].nbytes // 33)
        for name in ("k_buffer", "v_buffer")
    }
    assert real["k_buffer"][0] == real["k_buffer"][1]
    assert (real["v_buffer"][0] != real["v_buffer"][1]) == drifted
    figures = finding_figures(report)
    if not drifted:
        assert figures == {} and report["exit"] == 0
        return
    assert set(figures) == {"v_buffer"}
    host, device = figures["v_buffer"]  # at the finding's sampled widths: wider on the host
    assert host > device and real["v_buffer"][0] > real["v_buffer"][1]


def _mapping_tree(host_dtype: str) -> dict[str, str]:
    return {
        "dictkv/__init__.py": "",
        "dictkv/pools.py": f"""
            import torch

            STR_DTYPE = {{"bfloat16": torch.bfloat16, "float16": torch.float16,
                         "float32": torch.float32}}


            class DevicePool:
                def __init__(self, size: int, layer_num: int, model_cfg: dict,
                             device: str = "cuda"):
                    self.dtype = STR_DTYPE[model_cfg["torch_dtype"]]
                    heads, dim = model_cfg["num_key_value_heads"], model_cfg["head_dim"]
                    self.k_buffer = [
                        torch.zeros((size + 1, heads, dim), dtype=self.dtype, device=device)
                        for _ in range(layer_num)
                    ]


            class HostPool:
                def __init__(self, device_pool: DevicePool, host_size: int, device: str = "cpu"):
                    self.k_buffer = [
                        torch.empty((host_size,) + tuple(t.shape[1:]), dtype={host_dtype},
                                    device=device)
                        for t in device_pool.k_buffer
                    ]
        """,
    }


@pytest.mark.parametrize("host_dtype, drifted", [("t.dtype", False), ("torch.float16", True)])
def test_a_named_pool_reading_a_config_mapping_is_compared(
    tmp_path, capsys, monkeypatch, host_dtype, drifted
):
    """`model_cfg: dict` with no default, its keys read (`model_cfg["head_dim"]`): a stand-in
    whose keys are config values (was: "missing argument 'model_cfg'", never compared)."""
    root = write_tree(tmp_path, _mapping_tree(host_dtype))
    report = audit_json(root, capsys)
    summary = report["summary"]
    assert summary["pairs_compared"] == summary["pairs"] == 1
    assert summary["unresolved"] == 0
    [pools] = tree_modules(root, monkeypatch, "dictkv", "pools")
    cfg = {"torch_dtype": "float32", "num_key_value_heads": 8, "head_dim": 128}
    gpu = pools.DevicePool(16, 2, cfg, device="meta")
    cpu = pools.HostPool(gpu, 32, device="meta")
    real = (cpu.k_buffer[0].nbytes // 32, gpu.k_buffer[0].nbytes // 17)
    assert (real[0] != real[1]) == drifted
    figures = finding_figures(report)
    if not drifted:
        assert figures == {} and report["exit"] == 0
        return
    [finding] = report["findings"]
    assert "float32" in finding["message"]  # (the point where the model's dtype is float32)
    host, device = figures["k_buffer"]
    assert host * real[1] == device * real[0]
