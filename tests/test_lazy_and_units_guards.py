"""What the new readings must not do (a review of session 32's mends, each a tree of its own).

- a host counting tokens of its own beside a paged device is measured per token, not per
  device block (evaluate._in_device_units converts only a host whose rows the device's block
  count read off the config both take gives);
- a pool's no-argument method that allocates is run on the built pool only where the audited
  code calls it on a variable, never one the class calls itself under a flag, never one no code
  calls, never one that clears a buffer (`offload()` freeing the cache), and a method that
  exceeds the interpreter's budget leaves the pool as its constructor built it (lazy.py);
- what lazy.py reads of a tree is read again when another tree (or an edited one) is audited
  in the same process.
"""

from __future__ import annotations

import textwrap

from helpers import audit_json, one_pair_verdict, write_tree


def _plain(tree: dict[str, str]) -> dict[str, str]:
    """The tree's sources as the files hold them (dedented), to edit by line."""
    return {path: textwrap.dedent(source).lstrip("\n") for path, source in tree.items()}


UNITS_TREE = {
    "pk/__init__.py": "",
    "pk/device.py": """
        import torch


        class PagedCache:
            def __init__(self, num_pages: int, page_size: int, num_layers: int, heads: int, dim: int, dtype=torch.bfloat16, device="cuda"):
                self.num_pages = num_pages
                self.page_size = page_size
                self.num_layers = num_layers
                self.heads = heads
                self.dim = dim
                self.dtype = dtype
                self.k = [torch.empty((num_pages, page_size, heads, dim), dtype=dtype, device=device) for _ in range(num_layers)]
    """,
    "pk/host.py": """
        import torch

        from pk.device import PagedCache


        class HostCache:
            def __init__(self, device_pool: PagedCache, num_tokens: int):
                self.device_pool = device_pool
                self.k = [
                    torch.empty((num_tokens, device_pool.heads, device_pool.dim), dtype=device_pool.dtype, device="cpu")
                    for _ in range(device_pool.num_layers)
                ]
    """,
}


LAZY_FLAG_TREE = {
    "lf/__init__.py": "",
    "lf/device.py": """
        import torch


        class PagedCache:
            def __init__(self, size: int, num_layers: int, heads: int = 8, dim: int = 128, quantized: bool = False, device="cuda"):
                self.size = size
                self.num_layers = num_layers
                self.heads = heads
                self.dim = dim
                self.quantized = quantized
                dtype = torch.uint8 if quantized else torch.bfloat16
                self.k = [torch.empty((size, heads, dim), dtype=dtype, device=device) for _ in range(num_layers)]
                self.k_scale = None
                if quantized:
                    self._alloc_scales()

            def _alloc_scales(self):
                self.k_scale = [torch.empty((self.size, self.heads, self.dim // 32), dtype=torch.float32, device="cuda") for _ in range(self.num_layers)]
    """,
    "lf/host.py": """
        import torch

        from lf.device import PagedCache


        class HostCache:
            def __init__(self, device_pool: PagedCache, size: int):
                self.size = size
                self.k = [
                    torch.empty((size, device_pool.heads, device_pool.dim), dtype=device_pool.k[0].dtype, device="cpu")
                    for _ in range(device_pool.num_layers)
                ]
    """,
}


LAZY_UNCALLED_TREE = {
    "kv/__init__.py": "",
    "kv/config.py": """
        from dataclasses import dataclass


        @dataclass
        class KVConfig:
            layers: int = 8
            heads: int = 4
            dim: int = 128
            pages: int = 512
            page_len: int = 16
            host_ratio: int = 2
    """,
    "kv/device.py": """
        import torch

        from kv.config import KVConfig


        class PagedCache:
            def __init__(self, cfg: KVConfig, device="cuda"):
                self.cfg = cfg
                self.device = device
                self.layers = cfg.layers
                self.pages = cfg.pages
                self.page_len = cfg.page_len
                self.blob = torch.zeros((self.layers, self.pages, self.page_len, cfg.heads, cfg.dim), dtype=torch.bfloat16, device=device)
                self.scales = None

            @property
            def token_capacity(self):
                return self.pages * self.page_len

            def enable_debug_scales(self):
                self.scales = torch.zeros((self.layers, self.pages, self.page_len, self.cfg.heads, 64), dtype=torch.float32, device=self.device)
    """,
    "kv/host.py": """
        import torch

        from kv.config import KVConfig


        class HostCache:
            def __init__(self, cfg: KVConfig, rows: int, device="cpu"):
                self.cfg = cfg
                self.rows = rows
                self.layers = cfg.layers
                self.blob = [torch.empty((rows, cfg.heads, cfg.dim), dtype=torch.bfloat16, device=device) for _ in range(self.layers)]
    """,
    "kv/start.py": """
        from kv.config import KVConfig
        from kv.device import PagedCache
        from kv.host import HostCache


        def start(device="cuda", cfg=None):
            cfg = cfg or KVConfig()
            cache = PagedCache(cfg, device=device)
            host = HostCache(cfg, rows=cache.token_capacity * cfg.host_ratio, device="cpu")
            return cache, host
    """,
}


LAZY_DESTROY_TREE = {
    **LAZY_UNCALLED_TREE,
    "kv/device.py": """
        import torch

        from kv.config import KVConfig


        class PagedCache:
            def __init__(self, cfg: KVConfig, device="cuda"):
                self.cfg = cfg
                self.device = device
                self.layers = cfg.layers
                self.pages = cfg.pages
                self.page_len = cfg.page_len
                self.blob = torch.zeros((self.layers, self.pages, self.page_len, cfg.heads, cfg.dim), dtype=torch.bfloat16, device=device)
                self.backup = None

            @property
            def token_capacity(self):
                return self.pages * self.page_len

            def offload(self):
                self.backup = torch.empty((self.layers, self.pages, self.page_len, self.cfg.heads, self.cfg.dim), dtype=torch.bfloat16, device="cpu")
                self.backup.copy_(self.blob)
                self.blob = None
    """,
    "kv/host.py": """
        import torch

        from kv.config import KVConfig


        class HostCache:
            def __init__(self, cfg: KVConfig, rows: int, device="cpu"):
                self.cfg = cfg
                self.rows = rows
                self.layers = cfg.layers
                self.blob = [torch.empty((rows, cfg.heads, cfg.dim // 2), dtype=torch.bfloat16, device=device) for _ in range(self.layers)]
    """,
}


LAZY_BUDGET_TREE = {
    **LAZY_UNCALLED_TREE,
    "kv/device.py": """
        import torch

        from kv.config import KVConfig


        class PagedCache:
            def __init__(self, cfg: KVConfig, device="cuda"):
                self.cfg = cfg
                self.device = device
                self.layers = cfg.layers
                self.pages = cfg.pages
                self.page_len = cfg.page_len
                self.blob = torch.zeros((self.layers, self.pages, self.page_len, cfg.heads, cfg.dim), dtype=torch.bfloat16, device=device)
                self.table = None

            @property
            def token_capacity(self):
                return self.pages * self.page_len

            def build_table(self):
                self.table = torch.empty((self.pages, self.page_len), dtype=torch.int32, device=self.device)
                for p in range(self.pages):
                    for t in range(self.page_len):
                        self.table[p, t] = p * self.page_len + t
    """,
}


def test_a_host_counting_its_own_tokens_beside_a_paged_device(tmp_path, capsys):
    write_tree(tmp_path, UNITS_TREE)
    assert one_pair_verdict(audit_json(tmp_path, capsys)) == set()


def test_a_method_the_class_calls_under_a_flag_is_not_run(tmp_path, capsys):
    write_tree(tmp_path, LAZY_FLAG_TREE)
    report = audit_json(tmp_path, capsys)
    assert report["findings"] == [] and report["summary"]["pairs_compared"] == 1


def test_a_method_no_code_calls_is_not_run(tmp_path, capsys):
    write_tree(tmp_path, LAZY_UNCALLED_TREE)
    assert one_pair_verdict(audit_json(tmp_path, capsys)) == set()


def test_a_method_clearing_a_buffer_is_not_run(tmp_path, capsys):
    tree = _plain(LAZY_DESTROY_TREE)
    tree["kv/start.py"] = tree["kv/start.py"].replace(
        "    return cache, host", "    cache.offload()\n    return cache, host"
    )
    write_tree(tmp_path, tree)
    report = audit_json(tmp_path, capsys)
    (finding,) = report["findings"]  # the host's half-width blob, against the device's
    assert finding["message"].startswith("blob:") and "PagedCache.blob" in finding["message"]
    assert "backup" not in finding["message"]


def test_a_method_over_the_budget_leaves_the_pool_as_built(tmp_path, capsys):
    tree = _plain(LAZY_BUDGET_TREE)
    tree["kv/start.py"] = tree["kv/start.py"].replace(
        "    return cache, host", "    cache.build_table()\n    return cache, host"
    )
    write_tree(tmp_path, tree)
    report = audit_json(tmp_path, capsys)
    assert report["summary"]["pairs_compared"] == 1 and report["findings"] == []


def test_a_second_audit_in_one_process_reads_the_edited_tree(tmp_path, capsys):
    tree = _plain(LAZY_UNCALLED_TREE)
    write_tree(tmp_path, tree)
    assert audit_json(tmp_path, capsys)["findings"] == []
    # the host now allocates lazily, with half the width, in a method its builder calls
    host = tree["kv/host.py"].replace(
        "        self.blob = [torch.empty((rows, cfg.heads, cfg.dim), dtype=torch.bfloat16, "
        "device=device) for _ in range(self.layers)]",
        "        self.device = device\n        self.blob = []\n\n    def fill(self):\n"
        "        for _ in range(self.layers):\n            self.blob.append(torch.empty("
        "(self.rows, self.cfg.heads, self.cfg.dim // 2), dtype=torch.bfloat16, "
        "device=self.device))",
    )
    assert host != tree["kv/host.py"]
    start = tree["kv/start.py"].replace(
        "    return cache, host", "    host.fill()\n    return cache, host"
    )
    write_tree(tmp_path, {**tree, "kv/host.py": host, "kv/start.py": start})
    (finding,) = audit_json(tmp_path, capsys)["findings"]
    assert finding["message"].startswith("blob:")
