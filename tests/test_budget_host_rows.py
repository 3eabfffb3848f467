"""A host taking its device pool by the pack's name whose rows a byte budget buys (session 41,
probe47 r03).

`LatentHostPool(device_pool, host_mem_bytes)` keeps `self.capacity_tokens = tokens - tokens %
page_size` of `tokens = host_mem_bytes // per_token`, and allocates `(depth, capacity_tokens,
1, latent_dim)`. Its pages are its device's, so "a row of several tokens under a name that
does not say so" refused it, and a host named by the pack needed a token parameter: never
compared. A kept count whose name says tokens counts tokens; such a host is measured per row
it holds. Checked against the tensors the tree's own code builds on torch's meta device.
"""

from __future__ import annotations

import pytest
from helpers import audit_json, built_by_the_tree, finding_figures, write_tree


def _tree(host_dtype: str) -> dict[str, str]:
    return {
        "bh/__init__.py": "",
        "bh/pools.py": f"""
            import torch


            class LatentPool:
                def __init__(self, num_slots, depth, latent_dim, dtype, page_size=1,
                             device="cuda"):
                    self.depth, self.latent_dim, self.page_size = depth, latent_dim, page_size
                    self.dtype = dtype
                    self.kv_buffer = [
                        torch.zeros((num_slots + page_size, 1, latent_dim), dtype=dtype,
                                    device=device)
                        for _ in range(depth)
                    ]

                @property
                def row_bytes(self):
                    return self.latent_dim * self.dtype.itemsize


            class LatentHost:
                def __init__(self, device_pool: LatentPool, host_mem_bytes: int, device="cpu"):
                    self.depth = device_pool.depth
                    self.page_size = device_pool.page_size
                    tokens = host_mem_bytes // (self.depth * device_pool.row_bytes)
                    self.capacity_tokens = tokens - tokens % self.page_size
                    self.kv_buffer = torch.empty(
                        (self.depth, self.capacity_tokens, 1, device_pool.latent_dim),
                        dtype={host_dtype}, device=device,
                    )
        """,
        "bh/tiers.py": """
            import torch

            from .pools import LatentHost, LatentPool


            def tiers(cfg, num_slots, host_bytes=1 << 30, page_size=64, device="cuda",
                      host="cpu"):
                latent = cfg["kv_lora_rank"] + cfg["qk_rope_head_dim"]
                gpu = LatentPool(num_slots, cfg["layers"], latent, torch.bfloat16,
                                 page_size=page_size, device=device)
                cpu = LatentHost(gpu, host_bytes, device=host)
                return gpu, cpu
        """,
    }


@pytest.mark.parametrize("dtype, drifted", [("torch.float32", True), ("device_pool.dtype", False)])
def test_a_host_whose_rows_a_budget_buys_is_compared(tmp_path, capsys, monkeypatch, dtype, drifted):
    root = write_tree(tmp_path, _tree(dtype))
    report = audit_json(root, capsys)
    assert report["summary"]["pairs_compared"] == report["summary"]["pairs"] == 1
    cfg = {"kv_lora_rank": 512, "qk_rope_head_dim": 64, "layers": 4}
    gpu, cpu = built_by_the_tree(
        root,
        monkeypatch,
        "bh",
        "tiers",
        "tiers",
        cfg=cfg,
        num_slots=1024,
        device="meta",
        host="meta",
    )
    real_host = cpu.kv_buffer[0].nbytes // cpu.capacity_tokens
    real_device = gpu.kv_buffer[0].nbytes // gpu.kv_buffer[0].shape[0]
    assert (real_host != real_device) == drifted
    figures = finding_figures(report)
    if not drifted:
        assert figures == {}
        return
    host, device = figures["kv_buffer"]
    # the audit samples the config's widths: the ratio of the dtypes holds at any width
    assert host / device == real_host / real_device == 2
