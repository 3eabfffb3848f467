"""A dtype's name given as text by a config class's default (session 40, probe45 r02).

`kv_cache_dtype: str = "auto"` on the object a building function is given (or a pool's
constructor reads) is one value the code accepts, not the only one: the keys of the table the
code looks it up in (`KV_DTYPES[args.kv_cache_dtype]`) and the texts it compares it with are
tried too. Before, only "auto" was built, so a host keeping the model's dtype while its device
stores fp8 bytes was compared at bf16 alone and the run was green.

Each verdict is checked against the tensors the tree's own code builds on torch's meta device,
at every key of its table.
"""

from __future__ import annotations

import pytest
from helpers import audit_json, built_from_its_config, finding_figures, write_tree


def _serve_tree(host_dtype: str) -> dict[str, str]:
    return {
        "ts/__init__.py": "",
        "ts/config.py": """
            from dataclasses import dataclass, field

            import torch

            KV_DTYPES = {
                "auto": None,
                "bf16": torch.bfloat16,
                "fp8_e4m3": torch.float8_e4m3fn,
                "fp8_e5m2": torch.float8_e5m2,
            }


            @dataclass
            class ServeArgs:
                kv_cache_dtype: str = "auto"
                tokens: int = 64
                layers: int = 4
                latent_dim: int = 576
                model_dtype: torch.dtype = torch.bfloat16
                device: str = "cuda"
                extra: dict = field(default_factory=dict)
        """,
        "ts/pools.py": """
            import torch


            class LatentPool:
                def __init__(self, tokens, layers, latent_dim, dtype, device):
                    self.store_dtype = torch.uint8 if dtype.itemsize == 1 else dtype
                    self.kv = [
                        torch.empty((tokens, latent_dim), dtype=self.store_dtype, device=device)
                        for _ in range(layers)
                    ]


            class LatentHost:
                def __init__(self, tokens, layers, latent_dim, dtype, device="cpu"):
                    self.kv = torch.empty((layers, tokens, latent_dim), dtype=dtype,
                                          device=device)
        """,
        "ts/worker.py": f"""
            from .config import KV_DTYPES, ServeArgs
            from .pools import LatentHost, LatentPool


            def build(args: ServeArgs):
                dtype = KV_DTYPES[args.kv_cache_dtype] or args.model_dtype
                pool = LatentPool(args.tokens, args.layers, args.latent_dim, dtype, args.device)
                host = LatentHost(2 * args.tokens, args.layers, args.latent_dim,
                                  {host_dtype}, device="meta" if args.device == "meta" else "cpu")
                return pool, host
        """,
    }


@pytest.mark.parametrize(
    "host_dtype, drifted",
    [
        ("args.model_dtype", True),  # the host keeps the model's dtype
        ("pool.store_dtype", False),
    ],
)
def test_a_text_dtype_default_is_tried_at_every_key_of_its_table(
    tmp_path, capsys, monkeypatch, host_dtype, drifted
):
    root = write_tree(tmp_path, _serve_tree(host_dtype))
    report = audit_json(root, capsys)
    summary = report["summary"]
    assert summary["pairs"] == summary["pairs_compared"] == 1
    # the oracle: the tree's own code at each key of its table
    per_key = {}
    for key in ("auto", "bf16", "fp8_e4m3", "fp8_e5m2"):
        pool, host = built_from_its_config(
            root,
            monkeypatch,
            "ts",
            "worker",
            "build",
            "ServeArgs",
            kv_cache_dtype=key,
            device="meta",
        )
        tokens, layers = pool.kv[0].shape[0], len(pool.kv)
        device_row = sum(t.nbytes for t in pool.kv) // (tokens * layers)
        host_row = host.kv.nbytes // (host.kv.shape[0] * host.kv.shape[1])
        per_key[key] = (host_row, device_row)
    assert any(h != d for h, d in per_key.values()) == drifted
    figures = finding_figures(report)
    if not drifted:
        assert report["findings"] == []
        return
    assert set(figures) == {"kv"}
    # (the audit's width is its own sample, the class's default is not: the dtypes' ratio)
    host, device = figures["kv"]
    assert {host / device} == {h / d for h, d in per_key.values() if h != d}
    message = report["findings"][0]["message"]
    assert "kv_cache_dtype in {fp8_e4m3, fp8_e5m2}" in message  # the keys it disagrees at
    assert "texts the code compares it with or looks it up by" in message
