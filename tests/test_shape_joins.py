"""A shape joined with `+` from tuples (`base + (heads, head_dim)`, `shape[:1] + (n,) +
shape[2:]`, `(num_blocks,) + block_shape`) is read as the dimensions of its parts: the pool is
recognised by its leading layer dimension and token count (behaviour.concatenated_shape),
audited with no configuration, and checked against the tree's own tensors on the meta device."""

from __future__ import annotations

import pytest
from helpers import audit_json, import_file, one_pair_verdict, write_tree

CACHE = """
    import torch


    class PageCache:
        def __init__(self, num_pages: int, page_size: int, n_layers: int, heads: int,
                     head_dim: int, device="cuda"):
            self.page_size = page_size
            base = (n_layers, num_pages, page_size)
            self.k = torch.empty(base + (heads, head_dim), dtype=torch.bfloat16, device=device)
            self.v = torch.empty(base + (heads, head_dim), dtype=torch.bfloat16, device=device)


    class PageMirror:
        def __init__(self, device_pool: PageCache, num_pages: int, device="cpu"):
            rows = device_pool.k.shape[:1] + (num_pages,) + device_pool.k.shape[2:]
            self.k = torch.empty(rows, dtype=torch.bfloat16, device=device)
            self.v = torch.empty(rows, dtype=V_DTYPE, device=device)
"""


@pytest.mark.parametrize("v_dtype, bug", [("torch.bfloat16", False), ("torch.float32", True)])
def test_joined_shapes_are_read_as_their_parts(tmp_path, capsys, v_dtype, bug):
    write_tree(tmp_path, {"pc/__init__.py": "", "pc/cache.py": CACHE.replace("V_DTYPE", v_dtype)})
    report = audit_json(tmp_path, capsys)
    assert report["summary"]["device_pools"] == 1
    assert one_pair_verdict(report) == ({("LA001", "v")} if bug else set())
    cache = import_file(tmp_path / "pc" / "cache.py", "joined_cache")
    gpu = cache.PageCache(8, 16, 2, 4, 64, device="meta")
    host = cache.PageMirror(gpu, 8, device="meta")
    tokens_layers = 2 * 8 * 16
    assert (host.v.nbytes // tokens_layers != gpu.v.nbytes // tokens_layers) is bug
    if bug:
        assert "8192 B/token/layer vs 4096 B/token/layer" in report["findings"][0]["message"]
