"""A host taking a device pool (by the pack's names) that keeps the whole KV cache in one
storage (`kv_data` of `[2, layers, tokens, heads, dim]`) where its device keeps K and V apart
(`k_buffer`, `v_buffer`) is a host: the two device buffers summed are its counterpart
(session 39, probe45/r01). Before, it was "not a host pool" and nothing was compared.
Checked against the tensors the tree's own code builds on torch's meta device.
"""

from __future__ import annotations

import pytest
from helpers import audit_json, built_by_the_tree, one_pair_verdict, write_tree


def _tree(host_dtype: str) -> dict[str, str]:
    return {
        "larch/__init__.py": "",
        "larch/pools.py": f"""
            import torch


            class DeviceKV:
                def __init__(self, size, dtype, head_num, head_dim, layer_num, device):
                    self.size = size
                    self.dtype = dtype
                    self.head_num = head_num
                    self.head_dim = head_dim
                    self.layer_num = layer_num
                    self.k_buffer = [
                        torch.zeros((size + 1, head_num, head_dim), dtype=dtype, device=device)
                        for _ in range(layer_num)
                    ]
                    self.v_buffer = [
                        torch.zeros((size + 1, head_num, head_dim), dtype=dtype, device=device)
                        for _ in range(layer_num)
                    ]


            class HostKV:
                def __init__(self, device_pool, ratio, device="cpu"):
                    self.device_pool = device_pool
                    self.size = int(device_pool.size * ratio)
                    self.kv_data = torch.empty(
                        (2, device_pool.layer_num, self.size, device_pool.head_num,
                         device_pool.head_dim),
                        dtype={host_dtype},
                        device=device,
                    )


            def build(size=8, dtype=torch.bfloat16, device="cuda"):
                gpu = DeviceKV(size, dtype, 4, 64, 2, device)
                return gpu, HostKV(gpu, 2.0, device=device)
        """,
    }


@pytest.mark.parametrize(
    "host_dtype, verdict",
    [("torch.bfloat16", {("LA001", "kv_data")}), ("device_pool.dtype", set())],
)
def test_a_host_stacking_its_devices_k_and_v(tmp_path, capsys, monkeypatch, host_dtype, verdict):
    """The host's dtype hard-coded (buggy: wrong at every other KV dtype) or its device's."""
    root = write_tree(tmp_path, _tree(host_dtype))
    report = audit_json(root, capsys)
    assert one_pair_verdict(report) == verdict
    import torch

    gpu, host = built_by_the_tree(
        root, monkeypatch, "larch", "pools", "build", dtype=torch.float8_e4m3fn, device="meta"
    )
    device_row = sum(t[0].nbytes for t in [*gpu.k_buffer, *gpu.v_buffer])
    host_row = host.kv_data[:, :, 0].nbytes
    assert (device_row != host_row) == bool(verdict)


def test_one_storage_named_otherwise_is_no_host(tmp_path, capsys):
    """A class taking the device pool whose one storage does not say it is the KV cache (a
    staging `bounce`) is still no host: nothing to compare, said so."""
    files = _tree("device_pool.dtype")
    files["larch/pools.py"] = files["larch/pools.py"].replace("kv_data", "bounce")
    root = write_tree(tmp_path, files)
    report = audit_json(root, capsys)
    assert report["summary"]["host_pools"] == 0 and report["findings"] == []
