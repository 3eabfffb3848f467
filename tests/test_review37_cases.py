"""A second review of session 37's mends built trees where they went wrong; each is kept here
as the class of code it stands for, its verdict checked against the real tensors on torch's
meta device: an iterator from `reversed()` stepped with `next()` or reversed while known in
part (both had given a false LA001), a flat byte region named as a buffer beside a view of
another name (its finding was lost), a dtype's name compared with a mode before
`getattr(torch, ...)` (`"auto"`, the default, never tried: a missed finding), and a host whose
rows do not follow its device's (measured per device token: a false LA001)."""

from __future__ import annotations

import pytest
from helpers import audit_json, built_by_the_tree, finding_figures, one_pair_verdict, write_tree

STEPPED = """
    import torch


    class KVPool:
        def __init__(self, num_tokens: int, num_layers: int, kv_heads: int, head_dim: int,
                     dtype=torch.bfloat16, device="cuda"):
            self.dtype = dtype
            self.k_buffer = torch.empty((num_layers, num_tokens, kv_heads, head_dim), dtype=dtype,
                                        device=device)


    class HostKVPool:
        def __init__(self, device_pool: KVPool, num_tokens: int, device="cpu"):
            DIMS
            num_layers = device_pool.k_buffer.shape[0]
            shape = (num_layers, num_tokens, kv_heads, head_dim)
            self.k_buffer = torch.empty(shape, dtype=device_pool.dtype, device=device)


    def build(tokens=1024, layers=4, heads=8, head_dim=128, device="cuda", host_device="cpu"):
        pool = KVPool(tokens, layers, heads, head_dim, device=device)
        return pool, HostKVPool(pool, tokens * 2, device=host_device)
"""


@pytest.mark.parametrize(
    "dims",
    [
        # each `next()` moves the iterator on: 128, then 8
        "dims = reversed(device_pool.k_buffer.shape)\n"
        "            head_dim = next(dims)\n"
        "            kv_heads = next(dims)",
        # a sequence known in part (its device's layout, then layouts from outside the tree)
        # reversed: the last is tried first, not the known head
        "layouts = ((device_pool.k_buffer.shape[2] * 2, device_pool.k_buffer.shape[3]),"
        " *outside_layouts())\n"
        "            for kv_heads, head_dim in reversed(layouts):\n"
        "                if kv_heads * head_dim <= 4096:\n"
        "                    break",
    ],
    ids=["next", "partial"],
)
def test_an_iterator_is_never_stepped_or_reversed_by_guess(tmp_path, capsys, monkeypatch, dims):
    tree = STEPPED.replace("DIMS", dims)
    write_tree(tmp_path, {"it/__init__.py": "", "it/kv.py": tree})
    report = audit_json(tmp_path, capsys)
    assert report["findings"] == []
    if "next(" in dims:  # (the real pools agree: nothing to report, and nothing guessed)
        pool, host = built_by_the_tree(
            tmp_path, monkeypatch, "it", "kv", "build", device="meta", host_device="meta"
        )
        assert host.k_buffer.nbytes // 2048 == pool.k_buffer.nbytes // 1024
        assert report["summary"]["unresolved"] >= 1


def test_next_of_reversed_and_len_of_it_are_unknown(tmp_path):
    from helpers import assert_unknown, evaluate

    assert_unknown(evaluate(tmp_path, "next(reversed((1, 2)))"), "iterator")
    assert_unknown(evaluate(tmp_path, "len(reversed((1, 2)))"), "iterator")
    assert_unknown(evaluate(tmp_path, "reversed((1, 2))[0]"), "iterator")
    assert evaluate(tmp_path, "list(reversed((1, 2, 3)))") == [3, 2, 1]
    assert evaluate(tmp_path, "tuple(reversed([1, 2]))") == (2, 1)


NAMED_REGION = """
    import torch


    class MLAPool:
        def __init__(self, num_tokens: int, num_layers: int, width: int,
                     dtype=torch.bfloat16, device="cuda"):
            self.kv_buffer = torch.empty((num_layers, num_tokens, 1, width), dtype=dtype,
                                         device=device)
            self.index_k_buffer = torch.empty((num_layers, num_tokens, 132), dtype=torch.uint8,
                                              device=device)


    class HostMLAPool:
        def __init__(self, num_tokens: int, num_layers: int, width: int,
                     dtype=torch.bfloat16, device="cpu"):
            row = num_layers * width * dtype.itemsize
            self.kv_buffer = torch.empty(num_tokens * row, dtype=torch.uint8, device=device)
            self.latent = self.kv_buffer.view(dtype).view(num_layers, num_tokens, 1, width)
            self.index_k_buffer = torch.empty((num_layers, num_tokens, 132), dtype=torch.uint8,
                                              device=device)


    def build(tokens=1024, layers=4, width=576, dtype=torch.bfloat16, device="cuda",
              host_device="cpu"):
        pool = MLAPool(tokens, layers, width, dtype=dtype, device=device)
        host = HostMLAPool(tokens * 2, layers, width, dtype=HOST_DTYPE, device=host_device)
        return pool, host
"""


@pytest.mark.parametrize("host_dtype, bug", [("dtype", False), ("torch.float32", True)])
def test_a_region_named_as_a_buffer_keeps_its_name(tmp_path, capsys, monkeypatch, host_dtype, bug):
    """`self.kv_buffer` (bytes) viewed as `self.latent`: the storage keeps the name the device
    gives its buffer; it had been kept as `latent`, matched with nothing, the finding lost
    while the pair counted as compared."""
    write_tree(
        tmp_path, {"nr/__init__.py": "", "nr/kv.py": NAMED_REGION.replace("HOST_DTYPE", host_dtype)}
    )
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA001", "kv_buffer")} if bug else set())
    pool, host = built_by_the_tree(
        tmp_path, monkeypatch, "nr", "kv", "build", device="meta", host_device="meta"
    )
    real = (host.latent.nbytes // (2048 * 4), pool.kv_buffer.nbytes // (1024 * 4))
    assert (real[0] != real[1]) is bug
    if bug:
        assert finding_figures(report)["kv_buffer"] == real


MODE = """
    import torch

    _DEFAULTS = {"num_layers": 4, "num_kv_heads": 8, "head_dim": 128, "dtype": "auto",
                 "max_tokens": 1024, "staging_tokens": 512}


    class Args:
        def __init__(self, **overrides):
            for key, value in {**_DEFAULTS, **overrides}.items():
                setattr(self, key, value)

        @property
        def torch_dtype(self):
            if self.dtype == "auto":
                return torch.bfloat16
            return getattr(torch, self.dtype)

        @property
        def staging_dtype(self):
            if self.dtype == "auto":
                return STAGING_AUTO
            return getattr(torch, self.dtype)


    class Slab:
        def __init__(self, args, device="cuda"):
            self.k_buffer = [
                torch.zeros((args.max_tokens, args.num_kv_heads, args.head_dim),
                            dtype=args.torch_dtype, device=device)
                for _ in range(args.num_layers)
            ]


    class Sender:
        def __init__(self, args, device="cpu"):
            self.k_buffer = [
                torch.empty((args.staging_tokens, args.num_kv_heads, args.head_dim),
                            dtype=args.staging_dtype, device=device)
                for _ in range(args.num_layers)
            ]


    def launch(args=None, device="cuda", host_device="cpu"):
        args = args or Args()
        return Slab(args, device=device), Sender(args, device=host_device)
"""


@pytest.mark.parametrize("auto, bug", [("torch.bfloat16", False), ("torch.float32", True)])
def test_a_mode_compared_before_a_dtypes_name_is_tried(tmp_path, capsys, monkeypatch, auto, bug):
    """`if self.dtype == "auto": ...` before `getattr(torch, self.dtype)`: "auto" is one of the
    values `Args.dtype` is sampled as (it had been sampled as the pack's dtypes' names only,
    and the default's disagreement never shown)."""
    write_tree(tmp_path, {"md/__init__.py": "", "md/serve.py": MODE.replace("STAGING_AUTO", auto)})
    report = audit_json(tmp_path, capsys)
    findings = {(f["code"], f["message"].split(":", 1)[0]) for f in report["findings"]}
    assert findings == ({("LA001", "k_buffer")} if bug else set())
    if bug:
        assert "Args.dtype=auto" in report["findings"][0]["message"]
    slab, sender = built_by_the_tree(
        tmp_path, monkeypatch, "md", "serve", "launch", device="meta", host_device="meta"
    )
    real = (sender.k_buffer[0].nbytes // 512, slab.k_buffer[0].nbytes // 1024)
    assert (real[0] != real[1]) is bug


UNFOLLOWED = """
    import torch


    class KVPool:
        def __init__(self, num_tokens: int, num_layers: int, kv_heads: int, head_dim: int,
                     dtype=torch.bfloat16, device="cuda"):
            self.dtype = dtype
            self.k_buffer = torch.empty((num_layers, num_tokens, kv_heads, head_dim), dtype=dtype,
                                        device=device)


    class HostKVPool:
        def __init__(self, device_pool: KVPool, num_tokens: int, device="cpu"):
            L, _, H, D = device_pool.k_buffer.shape
            inner = [D, H, num_tokens]
            shape = (L, inner[2], H, D)
            self.k_buffer = torch.empty(shape, dtype=device_pool.dtype, device=device)


    def build(tokens=1024, layers=4, heads=8, head_dim=128, device="cuda", host_device="cpu"):
        pool = KVPool(tokens, layers, heads, head_dim, device=device)
        return pool, HostKVPool(pool, tokens * 2, device=host_device)
"""


def test_a_host_whose_rows_do_not_follow_its_device_is_not_measured_per_device_token(
    tmp_path, capsys, monkeypatch
):
    """The host's token count reaches its shape through a list (`inner[2]`), which recognition
    does not follow: its rows do not move with the builds' token counts, so nothing says what
    a row is; it had been measured per device token (0 vs 2048, a false LA001)."""
    write_tree(tmp_path, {"uf/__init__.py": "", "uf/kv.py": UNFOLLOWED})
    report = audit_json(tmp_path, capsys)
    assert report["findings"] == []
    assert report["summary"]["pairs_compared"] == 0 and report["summary"]["unresolved"] >= 1
    pool, host = built_by_the_tree(
        tmp_path, monkeypatch, "uf", "kv", "build", device="meta", host_device="meta"
    )
    assert host.k_buffer.nbytes // 2048 == pool.k_buffer.nbytes // 1024
