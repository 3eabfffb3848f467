"""Buffers made by a tensor's own method (`proto.new_empty(shape)`, `like.new_zeros(...)`): an
allocation of the receiver's dtype (unless `dtype=` says another), so a pool allocating that
way is a pool, and its figure is the real tensor's; checked on the meta device."""

from __future__ import annotations

import pytest
from helpers import audit_json, built_by_the_tree, finding_figures, one_pair_verdict, write_tree

CACHES = """
    import torch


    class RowCache:
        def __init__(self, num_slots: int, n_layers: int, heads: int = 8, head_dim: int = 128,
                     dtype=torch.bfloat16, device="cuda"):
            proto = torch.empty(0, dtype=dtype, device=device)
            shape = (n_layers, num_slots, heads, head_dim)
            self.k_rows = proto.new_empty(shape)
            self.v_rows = proto.new_zeros(n_layers, num_slots, heads, head_dim)


    class RowMirror:
        def __init__(self, num_slots: int, n_layers: int, heads: int = 8, head_dim: int = 128,
                     dtype=torch.bfloat16, device="cpu"):
            like = torch.zeros(1, dtype=dtype, device=device)
            self.k_rows = like.new_empty((n_layers, num_slots, heads, head_dim))
            self.v_rows = like.new_empty((n_layers, num_slots, heads, head_dim)MIRROR_DTYPE)


    def start(slots=2048, mirror_slots=512, n_layers=4, heads=8, head_dim=128,
              dtype=torch.bfloat16, device="cuda", mirror_device="cpu"):
        cache = RowCache(slots, n_layers, heads, head_dim, dtype=dtype, device=device)
        mirror = RowMirror(mirror_slots, n_layers, heads, head_dim, dtype=dtype,
                            device=mirror_device)
        return cache, mirror
"""


@pytest.mark.parametrize(
    "mirror_dtype, bug",
    [
        ("", False),
        (", dtype=dtype", False),
        (", dtype=None", False),  # the receiver's, as torch reads it
        (", dtype=torch.float32", True),
    ],
)
def test_buffers_made_by_a_tensors_method(tmp_path, capsys, monkeypatch, mirror_dtype, bug):
    source = CACHES.replace("MIRROR_DTYPE", mirror_dtype)
    write_tree(tmp_path, {"pc/__init__.py": "", "pc/caches.py": source})
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA001", "v_rows")} if bug else set())
    cache, mirror = built_by_the_tree(
        tmp_path, monkeypatch, "pc", "caches", "start", device="meta", mirror_device="meta"
    )
    for name in ("k_rows", "v_rows"):
        device_row = getattr(cache, name).nbytes // 2048
        mirror_row = getattr(mirror, name).nbytes // 512
        assert (device_row != mirror_row) is (bug and name == "v_rows")


def test_a_made_tensor_is_measured_as_the_real_one(tmp_path, capsys, monkeypatch):
    """Both figures of the finding are the meta tensors' bytes per token per layer."""
    source = CACHES.replace("MIRROR_DTYPE", ", dtype=torch.float32")
    write_tree(tmp_path, {"pc/__init__.py": "", "pc/caches.py": source})
    figures = finding_figures(audit_json(tmp_path, capsys))
    cache, mirror = built_by_the_tree(
        tmp_path, monkeypatch, "pc", "caches", "start", device="meta", mirror_device="meta"
    )
    assert figures == {
        "v_rows": (mirror.v_rows.nbytes // (512 * 4), cache.v_rows.nbytes // (2048 * 4))
    }
