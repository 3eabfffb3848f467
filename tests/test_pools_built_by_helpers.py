"""A pool built by a function of the tree that ends by returning it (session 41, probe47 r07).

`build_decode_peer(cfg, dtype, ...)` computes a layout and returns `DecodeKVPool(spec, ...)`;
the function that starts a prefill instance builds its own pool beside a call of it. The two
pools were never paired ("no host pool found", exit 0): the sibling search saw one pool class
called in that function. Such a call is now followed as a build of the class the helper
returns, run through the helper as the function runs it, and the pair is compared. Checked
against the tensors the tree's own code builds on torch's meta device.
"""

from __future__ import annotations

import pytest
from helpers import audit_json, built_by_the_tree, finding_figures, write_tree


def _tree(decode_backend: str) -> dict[str, str]:
    return {
        "bp/__init__.py": "",
        "bp/layout.py": """
            import torch

            KV_DTYPES = {"bf16": torch.bfloat16, "fp8": torch.float8_e4m3fn}


            class Row:
                def __init__(self, latent, rope, dtype, group=0):
                    self.latent, self.rope, self.dtype, self.group = latent, rope, dtype, group

                @property
                def nbytes(self):
                    scales = (self.latent // self.group) * 4 if self.group else 0
                    rope_bytes = 2 if self.group else self.dtype.itemsize
                    return self.latent * self.dtype.itemsize + scales + self.rope * rope_bytes


            def pick_row(cfg, kv_dtype, backend="dense"):
                dtype = KV_DTYPES[kv_dtype]
                if dtype.itemsize == 1 and backend == "packed":
                    return Row(cfg["kv_lora_rank"], cfg["rope_dim"], dtype, group=128)
                return Row(cfg["kv_lora_rank"], cfg["rope_dim"], dtype)
        """,
        "bp/pools.py": """
            import torch


            class PrefillPool:
                def __init__(self, row, depth, n_pages, page, device="cuda"):
                    self.page_size = page
                    self.kv = [torch.zeros((n_pages, page, row.nbytes), dtype=torch.uint8,
                                           device=device) for _ in range(depth)]


            class DecodePool:
                def __init__(self, row, depth, n_pages, page, device="cuda"):
                    self.page_size = page
                    self.kv = [torch.zeros((n_pages, page, row.nbytes), dtype=torch.uint8,
                                           device=device) for _ in range(depth)]
        """,
        "bp/peer.py": f"""
            from .layout import pick_row
            from .pools import DecodePool


            def build_decode_peer(cfg, kv_dtype, n_pages, page, device="cuda"):
                row = pick_row(cfg, kv_dtype{decode_backend})
                return DecodePool(row, cfg["layers"], n_pages, page, device=device)
        """,
        "bp/serve.py": """
            from .layout import pick_row
            from .peer import build_decode_peer
            from .pools import PrefillPool


            def start(cfg, kv_dtype="fp8", page=64, device="cuda"):
                row = pick_row(cfg, kv_dtype, "packed")
                prefill = PrefillPool(row, cfg["layers"], 512, page, device=device)
                decode = build_decode_peer(cfg, kv_dtype, 2048, page, device=device)
                return prefill, decode
        """,
    }


@pytest.mark.parametrize("backend, drifted", [("", True), (', "packed"', False)])
def test_a_pool_a_helper_builds_and_returns_is_compared(
    tmp_path, capsys, monkeypatch, backend, drifted
):
    root = write_tree(tmp_path, _tree(backend))
    report = audit_json(root, capsys)
    assert report["summary"]["pairs_compared"] == 1
    cfg = {"kv_lora_rank": 512, "rope_dim": 64, "layers": 4}
    prefill, decode = built_by_the_tree(
        root, monkeypatch, "bp", "serve", "start", cfg=cfg, device="meta"
    )
    real = (decode.kv[0].nbytes // (2048 * 64), prefill.kv[0].nbytes // (512 * 64))
    assert (real[0] != real[1]) == drifted
    figures = finding_figures(report)
    if not drifted:
        assert figures == {}
        return
    assert set(figures) == {"kv"}
    host, device = figures["kv"]
    # (the audit samples the model's dimensions: its figures are its own, their formulas
    # the tree's; at the tree's real dimensions they are the real ones)
    assert (host < device) == (real[0] < real[1])  # the dense row is the smaller
    message = report["findings"][0]["message"]
    assert "DecodePool" in message and "PrefillPool" in message


def test_a_helper_returning_something_else_builds_no_pair(tmp_path, capsys):
    """A function whose last statement returns anything but a pool's call is no builder."""
    files = _tree("")
    files["bp/peer.py"] = """
        from .layout import pick_row
        from .pools import DecodePool


        def build_decode_peer(cfg, kv_dtype, n_pages, page, device="cuda"):
            row = pick_row(cfg, kv_dtype)
            pool = DecodePool(row, cfg["layers"], n_pages, page, device=device)
            return [pool]
    """
    files["bp/serve.py"] = files["bp/serve.py"].replace("decode = build", "decode, = build")
    root = write_tree(tmp_path, files)
    report = audit_json(root, capsys)
    assert report["summary"]["pairs"] == 0
    assert report["findings"] == []
