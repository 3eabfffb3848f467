"""Pools looked up in a registry their class decorators fill, built from kwargs dicts (session
39, probe45/r02).

`@register_pool("mla_host")` on a class runs when its module is imported (by an import at the
top of a module, or inside the function that looks the class up): the interpreter now runs
such decorators for what they do (`_POOLS[name] = cls`), so `get_pool_cls("mla_host")` is that
class. Pairing sees `device_cls = get_pool_cls("mla_device")` then `device_cls(...)`, and a
pool built from `**host_kwargs` after `host_kwargs = dict(shape)` and `host_kwargs.update(...)`
is built from what the function puts in that dict. Checked against the tensors the tree's own
code builds on torch's meta device.
"""

from __future__ import annotations

import pytest
from helpers import (
    audit_json,
    build_index,
    built_by_the_tree,
    module_value,
    one_pair_verdict,
    write_tree,
)

from auditor.interpret.values import ClassRef


def _tree(host_keyword: str) -> dict[str, str]:
    return {
        "tam/__init__.py": "",
        "tam/mem/__init__.py": """
            _POOLS = {}


            def register_pool(name):
                def deco(cls):
                    _POOLS[name] = cls
                    return cls

                return deco


            def get_pool_cls(name):
                from . import host, pools  # noqa: F401  (their decorators register them)

                return _POOLS[name]
        """,
        "tam/mem/pools.py": """
            import torch

            from . import register_pool


            @register_pool("mla_device")
            class LatentPool:
                def __init__(self, size, dtype, kv_lora_rank, rope_dim, layer_num, device):
                    self.store_dtype = torch.uint8 if dtype == torch.float8_e4m3fn else dtype
                    self.kv_buffer = [
                        torch.zeros((size + 1, 1, kv_lora_rank + rope_dim),
                                    dtype=self.store_dtype, device=device)
                        for _ in range(layer_num)
                    ]
        """,
        "tam/mem/host.py": """
            import torch

            from . import register_pool


            @register_pool("mla_host")
            class LatentHost:
                def __init__(self, size, layer_num, kv_lora_rank, rope_dim, device="cpu",
                             dtype=torch.bfloat16, **_unused):
                    self.kv_store = torch.empty((layer_num, size, 1, kv_lora_rank + rope_dim),
                                                dtype=dtype, device=device)
        """,
        "tam/worker.py": f"""
            from dataclasses import dataclass

            import torch

            from .mem import get_pool_cls


            @dataclass
            class Args:
                max_tokens: int = 64
                fp8: bool = True
                device: str = "cuda"


            def build_pools(args: Args, layers: int = 2):
                dtype = torch.float8_e4m3fn if args.fp8 else torch.bfloat16
                shape_kwargs = dict(layer_num=layers, kv_lora_rank=512, rope_dim=64)
                device_cls = get_pool_cls("mla_device")
                device_pool = device_cls(size=args.max_tokens, dtype=dtype, device=args.device,
                                         **shape_kwargs)
                host_kwargs = dict(shape_kwargs)
                host_kwargs.update(size=args.max_tokens * 2, device=args.device)
                host_kwargs["{host_keyword}"] = device_pool.store_dtype
                host_pool = get_pool_cls("mla_host")(**host_kwargs)
                return device_pool, host_pool
        """,
    }


def test_a_decorator_fills_the_registry_an_import_runs(tmp_path):
    """The class a registry lookup returns is the one its decorator registered."""
    files = {f"src/{k}": v for k, v in _tree("dtype").items()}
    files["src/tam/probe.py"] = "from .mem import get_pool_cls\nFOUND = get_pool_cls('mla_host')\n"
    index = build_index(tmp_path, files)
    unrun = module_value(index, "tam.probe", "FOUND")  # not pools: their decorators not run
    assert not isinstance(unrun, ClassRef)
    index = build_index(tmp_path / "again", files)
    index.pool_classes = frozenset(id(c) for c in index.all_classes() if "Latent" in c.name)
    found = module_value(index, "tam.probe", "FOUND")
    assert isinstance(found, ClassRef) and found.cls.name == "LatentHost"


@pytest.mark.parametrize(
    "host_keyword, verdict",
    [("kv_dtype", {("LA001", "kv_store")}), ("dtype", set())],
)
def test_pools_from_a_registry_and_a_kwargs_dict(
    tmp_path, capsys, monkeypatch, host_keyword, verdict
):
    """The host given its dtype under a keyword it swallows (`**_unused`: buggy, it stays
    bf16 beside fp8 bytes) or under its own (fixed)."""
    root = write_tree(tmp_path, _tree(host_keyword))
    report = audit_json(root, capsys)
    assert one_pair_verdict(report) == verdict
    import importlib

    monkeypatch.syspath_prepend(str(root))
    args = importlib.import_module("tam.worker").Args(device="meta")
    device, host = built_by_the_tree(root, monkeypatch, "tam", "worker", "build_pools", args=args)
    device_row = sum(t[0].nbytes for t in device.kv_buffer)
    host_row = host.kv_store[:, 0].nbytes
    assert (device_row != host_row) == bool(verdict)
