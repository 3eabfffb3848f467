"""Spellings of probe41's trees, each a class of code rather than its example: a shape given as
`torch.Size([...])` (recognised as the list it holds), strides computed with `reversed(...)`
(a builtin the interpreter runs), and a config whose `torch_dtype` property names its dtype
by text (`getattr(torch, self.dtype)`: the field is sampled as the pack's dtypes' names, not
as a number). Each verdict is checked against the real tensors built on torch's meta device."""

from __future__ import annotations

import pytest
from helpers import (
    audit_json,
    built_by_the_tree,
    built_from_its_config,
    finding_figures,
    one_pair_verdict,
    write_tree,
)

SIZED = """
    from dataclasses import dataclass

    import torch


    @dataclass
    class Config:
        num_layers: int = 4
        num_kv_heads: int = 8
        head_dim: int = 128
        page_size: int = 16
        num_gpu_pages: int = 64
        num_host_pages: int = 128
        kv_dtype: torch.dtype = torch.bfloat16
        host_dtype: torch.dtype = torch.bfloat16


    class PageArena:
        def __init__(self, cfg: Config, device="cuda"):
            self.num_pages = cfg.num_gpu_pages
            shape = (self.num_pages, cfg.page_size, cfg.num_kv_heads, cfg.head_dim)
            self.k_pages = []
            for _ in range(cfg.num_layers):
                self.k_pages.append(torch.empty(shape, dtype=cfg.kv_dtype, device=device))


    class SpillTier:
        def __init__(self, cfg: Config, device="cpu"):
            self.num_pages = cfg.num_host_pages
            self.num_layers = cfg.num_layers
            shape = torch.Size([self.num_pages, cfg.page_size, cfg.num_kv_heads, cfg.head_dim])
            self.k_pages = [
                torch.empty(shape, dtype=cfg.HOST_DTYPE, device=device)
                for _ in range(self.num_layers)
            ]


    def build(cfg=None, device="cuda", host_device="cpu"):
        cfg = cfg if cfg is not None else Config()
        return PageArena(cfg, device=device), SpillTier(cfg, device=host_device)
"""


@pytest.mark.parametrize("host_dtype, bug", [("kv_dtype", False), ("host_dtype", True)])
def test_a_shape_given_as_a_torch_size(tmp_path, capsys, monkeypatch, host_dtype, bug):
    tree = SIZED.replace("HOST_DTYPE", host_dtype)
    if bug:
        tree = tree.replace(
            "host_dtype: torch.dtype = torch.bfloat16", "host_dtype: torch.dtype = torch.float32"
        )
    write_tree(tmp_path, {"sz/__init__.py": "", "sz/tiers.py": tree})
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA001", "k_pages")} if bug else set())
    arena, tier = built_by_the_tree(
        tmp_path, monkeypatch, "sz", "tiers", "build", device="meta", host_device="meta"
    )
    real = (tier.k_pages[0].nbytes // (128 * 16), arena.k_pages[0].nbytes // (64 * 16))
    assert (real[0] != real[1]) is bug
    if bug:
        assert finding_figures(report)["k_pages"] == real


STRIDED = """
    import torch


    def contiguous_strides(size):
        strides, acc = [], 1
        for dim in reversed(size):
            strides.append(acc)
            acc *= dim
        return tuple(reversed(strides))


    class BlockTable:
        def __init__(self, num_blocks, block_size, num_layers, num_heads, head_dim,
                     dtype=torch.bfloat16, device="cuda"):
            self.num_layers = num_layers
            self.block_size = block_size
            self.dtype = dtype
            self.block_shape = (2, block_size, num_heads, head_dim)
            size = (num_layers, num_blocks) + self.block_shape
            self.kv = torch.empty_strided(size, contiguous_strides(size), dtype=dtype,
                                          device=device)


    class BlockMirror:
        def __init__(self, table, num_blocks, device="cpu"):
            self.block_size = table.block_size
            shape = (table.num_layers, num_blocks) + table.block_shape[:TAIL]
            self.kv = torch.empty(shape, dtype=table.dtype, device=device)


    def build(device="cuda", host_device="cpu"):
        table = BlockTable(64, 16, 4, 8, 128, device=device)
        return table, BlockMirror(table, 256, device=host_device)
"""


@pytest.mark.parametrize("tail, bug", [("", False), ("3", True)])
def test_strides_computed_with_reversed(tmp_path, capsys, monkeypatch, tail, bug):
    """`reversed(size)` is run as Python runs it (it had been an unresolved name, so the
    device's one strided tensor, and the pair, were never compared)."""
    write_tree(tmp_path, {"st/__init__.py": "", "st/blocks.py": STRIDED.replace("TAIL", tail)})
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA001", "kv")} if bug else set())
    table, mirror = built_by_the_tree(
        tmp_path, monkeypatch, "st", "blocks", "build", device="meta", host_device="meta"
    )
    # the real strides are what contiguous ones are
    assert table.kv.stride() == torch_contiguous(tuple(table.kv.shape))
    real = (mirror.kv.nbytes // (256 * 16 * 4), table.kv.nbytes // (64 * 16 * 4))
    assert (real[0] != real[1]) is bug
    if bug:
        assert finding_figures(report)["kv"] == real


def torch_contiguous(shape: tuple[int, ...]) -> tuple[int, ...]:
    import torch

    return torch.empty(shape, device="meta").stride()


NAMED_DTYPE = """
    _DEFAULTS = {"num_layers": 4, "num_kv_heads": 8, "head_dim": 128, "dtype": "bfloat16",
                 "tp_size": 2, "max_tokens": 1024, "staging_tokens": 512}


    class Args:
        def __init__(self, **overrides):
            for key, value in {**_DEFAULTS, **overrides}.items():
                setattr(self, key, value)

        @property
        def torch_dtype(self):
            import torch
            return getattr(torch, self.dtype)


    class Slab:
        def __init__(self, args, device="cuda"):
            import torch
            heads = args.num_kv_heads // args.tp_size
            self.k_buffer = [
                torch.zeros(size=(args.max_tokens, heads, args.head_dim), dtype=args.torch_dtype,
                            device=device)
                for _ in range(args.num_layers)
            ]


    class Sender:
        def __init__(self, args, device="cpu"):
            import torch
            heads = SENDER_HEADS
            self.k_buffer = [
                torch.empty((args.staging_tokens, heads, args.head_dim), dtype=args.torch_dtype,
                            device=device)
                for _ in range(args.num_layers)
            ]


    def launch(args=None, device="cuda", host_device="cpu"):
        args = args or Args()
        return Slab(args, device=device), Sender(args, device=host_device)
"""


@pytest.mark.parametrize(
    "heads, bug",
    [("args.num_kv_heads // args.tp_size", False), ("args.num_kv_heads", True)],
)
def test_a_dtype_named_by_a_config_field(tmp_path, capsys, monkeypatch, heads, bug):
    """`getattr(torch, self.dtype)` in the config's property: `Args.dtype` is sampled as the
    names of the pack's dtypes (it had been sampled as a number, and both sides' dtypes were
    unresolved: the pair was never compared)."""
    write_tree(
        tmp_path, {"nd/__init__.py": "", "nd/serve.py": NAMED_DTYPE.replace("SENDER_HEADS", heads)}
    )
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA001", "k_buffer")} if bug else set())
    assert any("Args.dtype=bfloat16" in f["message"] for f in report["findings"]) is bug
    slab, sender = built_by_the_tree(
        tmp_path, monkeypatch, "nd", "serve", "launch", device="meta", host_device="meta"
    )
    real = (sender.k_buffer[0].nbytes // 512, slab.k_buffer[0].nbytes // 1024)
    assert (real[0] != real[1]) is bug
    if bug:  # (the audit samples the heads and tp size: the figures are its own point's)
        host, device = finding_figures(report)["k_buffer"]
        assert host != device


def test_every_builtin_the_library_runs_is_a_name_the_interpreter_knows():
    from auditor.interpret.library import FUNCTIONS
    from auditor.interpret.namespaces import BUILTIN_NAMES

    modelled = {  # (`builtins.object.__setattr__`: `object` is the name)
        name.removeprefix("builtins.").split(".")[0]
        for name in FUNCTIONS
        if name.startswith("builtins.")
    }
    assert "reversed" in modelled
    assert modelled <= BUILTIN_NAMES


def test_a_dunder_method_is_not_run_as_a_computed_field(tmp_path):
    from pathlib import Path

    from auditor.pipeline import audit
    from auditor.settings import load_settings

    write_tree(
        tmp_path, {"nd/__init__.py": "", "nd/serve.py": NAMED_DTYPE.replace("SENDER_HEADS", "2")}
    )
    settings = load_settings(None)
    settings.respect_gitignore = False
    result = audit([Path(tmp_path)], settings)
    [slab] = [c for c in result.catalog.roles.index.all_classes() if c.name == "Slab"]
    facts = result.catalog.roles.facts(slab)
    assert "Args.torch_dtype" in facts.object_properties
    assert not any("__" in p for p in facts.object_properties)
    assert "Args.dtype" in facts.dtype_names_params


PICKED = """
    from dataclasses import dataclass

    import torch


    @dataclass
    class Config:
        num_layers: int = 4
        num_kv_heads: int = 8
        head_dim: int = 128
        kv_lora_rank: int = 512
        qk_rope_head_dim: int = 64
        use_mla: bool = True
        max_tokens: int = 1024
        host_tokens: int = 4096


    class TokenStore:
        def __init__(self, cfg, device="cuda"):
            self.k = [torch.empty((cfg.max_tokens, cfg.num_kv_heads, cfg.head_dim),
                                  dtype=torch.bfloat16, device=device)
                      for _ in range(cfg.num_layers)]


    class LatentStore:
        def __init__(self, cfg, device="cuda"):
            width = cfg.kv_lora_rank + cfg.qk_rope_head_dim
            self.kv = [torch.empty((cfg.max_tokens, 1, width), dtype=torch.bfloat16,
                                   device=device)
                       for _ in range(cfg.num_layers)]


    class TokenStash:
        def __init__(self, cfg, device="cpu"):
            self.k = [torch.empty((cfg.host_tokens, cfg.num_kv_heads, cfg.head_dim),
                                  dtype=torch.bfloat16, device=device)
                      for _ in range(cfg.num_layers)]


    class LatentStash:
        def __init__(self, cfg, device="cpu"):
            width = cfg.kv_lora_rank + ROPE
            self.kv = [torch.empty((cfg.host_tokens, 1, width), dtype=torch.bfloat16,
                                   device=device)
                       for _ in range(cfg.num_layers)]


    def allocate(cfg=None, device="cuda", host_device="cpu"):
        cfg = cfg or Config()
        if cfg.use_mla:
            store_cls, stash_cls = LatentStore, LatentStash
        else:
            store_cls, stash_cls = TokenStore, TokenStash
        return store_cls(cfg, device=device), stash_cls(cfg, device=host_device)
"""


@pytest.mark.parametrize("rope, bug", [("cfg.qk_rope_head_dim", False), ("0", True)])
def test_classes_picked_together_in_each_branch(tmp_path, capsys, monkeypatch, rope, bug):
    """`store_cls, stash_cls = LatentStore, LatentStash` in one arm, the token classes in the
    other: the classes bound together are built together (and only they: a latent store is
    not compared with a token stash)."""
    write_tree(tmp_path, {"pk/__init__.py": "", "pk/stores.py": PICKED.replace("ROPE", rope)})
    report = audit_json(tmp_path, capsys)
    pairs = {(p["host"], p["device"]): p["compared"] for p in report["coverage"]}
    assert pairs[("LatentStash", "LatentStore")] is True
    assert not pairs.keys() & {("TokenStash", "LatentStore"), ("LatentStash", "TokenStore")}
    # one item unresolved: the token classes, never built (the flag is the config's default);
    # the classes of different arms are not paired at all (each would be one more)
    assert report["summary"]["unresolved"] == 1
    findings = {(f["code"], f["message"].split(":", 1)[0]) for f in report["findings"]}
    assert findings == ({("LA001", "kv")} if bug else set())
    store, stash = built_by_the_tree(
        tmp_path, monkeypatch, "pk", "stores", "allocate", device="meta", host_device="meta"
    )
    real = (stash.kv[0].nbytes // 4096, store.kv[0].nbytes // 1024)
    assert (real[0] != real[1]) is bug
    if bug:  # (the untyped `cfg`'s numbers are sampled: the figures are the audit's point's)
        host, device = finding_figures(report)["kv"]
        assert host < device and real[0] < real[1]


FALLBACK = """
    from dataclasses import dataclass

    import torch


    @dataclass
    class Settings:
        num_layers: int = 4
        num_kv_heads: int = 8
        head_dim: int = 128
        group_size: int = 32
        num_tokens: int = 1024
        host_tokens: int = 4096
    EXTRA


    class Cache:
        def __init__(self, s: Settings, device="cuda"):
            groups = s.head_dim // s.group_size
            self.k_q = [torch.zeros((s.num_tokens, s.num_kv_heads, s.head_dim), dtype=torch.int8,
                                    device=device) for _ in range(s.num_layers)]
            self.k_scale = [torch.zeros((s.num_tokens, s.num_kv_heads, groups),
                                        dtype=torch.float16, device=device)
                            for _ in range(s.num_layers)]


    class Offload:
        def __init__(self, s: Settings, device="cpu"):
            group = getattr(s, "GROUP_NAME", FALLBACK_VALUE)
            self.k_q = [torch.zeros((s.host_tokens, s.num_kv_heads, s.head_dim), dtype=torch.int8,
                                    device=device) for _ in range(s.num_layers)]
            self.k_scale = [torch.zeros((s.host_tokens, s.num_kv_heads, s.head_dim // group),
                                        dtype=torch.float16, device=device)
                            for _ in range(s.num_layers)]


    def build(s=None, device="cuda", host_device="cpu"):
        s = s or Settings()
        return Cache(s, device=device), Offload(s, device=host_device)
"""


def _fallback_tree(name: str = "quant_group", value: str = "64", extra: str = "") -> str:
    return (
        FALLBACK.replace("GROUP_NAME", name)
        .replace("FALLBACK_VALUE", value)
        .replace("    EXTRA\n", extra)
    )


@pytest.mark.parametrize("value, bug", [("s.group_size", False), ("64", True)])
def test_a_fallback_read_of_an_attribute_the_class_never_gives(
    tmp_path, capsys, monkeypatch, value, bug
):
    """`getattr(s, "quant_group", 64)` of a dataclass with no such field: the object has none,
    so the code's fallback is what it reads (said as an assumption); it was unresolved, the
    scale buffers never compared."""
    write_tree(tmp_path, {"fb/__init__.py": "", "fb/pools.py": _fallback_tree(value=value)})
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA001", "k_scale")} if bug else set())
    cache, offload = built_by_the_tree(
        tmp_path, monkeypatch, "fb", "pools", "build", device="meta", host_device="meta"
    )
    real = (offload.k_scale[0].nbytes // 4096, cache.k_scale[0].nbytes // 1024)
    assert (real[0] != real[1]) is bug
    if bug:
        assert finding_figures(report)["k_scale"] == real
        assert "Settings.quant_group taken as absent" in report["findings"][0]["message"]


@pytest.mark.parametrize(
    "extra",
    [
        # any attribute may be set by a computed name
        "\n        def set(self, name, value):\n            setattr(self, name, value)\n",
        "\n        def __getattr__(self, name):\n            return 16\n",
        "\n        def load(self, table):\n            self.__dict__.update(table)\n",
    ],
    ids=["setattr", "getattr-hook", "dict"],
)
def test_a_fallback_of_an_open_class_stays_unresolved(tmp_path, capsys, extra):
    write_tree(tmp_path, {"fo/__init__.py": "", "fo/pools.py": _fallback_tree(extra=extra)})
    report = audit_json(tmp_path, capsys)
    assert report["findings"] == []
    assert report["summary"]["unresolved"] == 1  # (the offload's scales, said)


def test_a_field_the_class_has_is_not_taken_as_absent(tmp_path, capsys):
    """`getattr(s, "group_size", 64)` of a class that has that field: its sampled value."""
    write_tree(tmp_path, {"fh/__init__.py": "", "fh/pools.py": _fallback_tree(name="group_size")})
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == set()


def test_a_fallback_of_a_class_with_a_base_outside_the_tree_stays_unresolved(tmp_path, capsys):
    """A base the audit cannot read (`PretrainedConfig`) may give any attribute."""
    tree = _fallback_tree().replace("class Settings:", "class Settings(PretrainedConfig):")
    tree = tree.replace(
        "import torch\n", "import torch\n    from transformers import PretrainedConfig\n", 1
    )
    assert "Settings(PretrainedConfig)" in tree
    write_tree(tmp_path, {"fx/__init__.py": "", "fx/pools.py": tree})
    report = audit_json(tmp_path, capsys)
    assert report["findings"] == []
    assert report["summary"]["unresolved"] >= 1


LEDGER = """
    import torch


    class PagedLedger:
        def __init__(self, num_pages, page_size, dtype, head_num, head_dim, layer_num, device):
            self.num_pages = num_pages
            self.page_size = page_size
            self.dtype = dtype
            self.k_buffer = []
            for _ in range(layer_num):
                self.k_buffer.append(
                    torch.empty((num_pages, page_size, head_num, head_dim), dtype=dtype,
                                device=device)
                )


    class LedgerMirror:
        def __init__(self, device_pool, ratio, device="cpu"):
            self.dtype = HOST_DTYPE
            self.layer_num = len(device_pool.k_buffer)
            self.page_shape = tuple(device_pool.k_buffer[0].shape[1:])
            self.page_size = self.page_shape[0]
            self.num_pages = int(device_pool.num_pages * ratio)
            shape = (self.layer_num, self.num_pages) + self.page_shape
            self.k_buffer = torch.empty(shape, dtype=self.dtype, device=device)


    def build(device="cuda", host_device="cpu"):
        pool = PagedLedger(64, 16, torch.bfloat16, 8, 128, 4, device)
        return pool, LedgerMirror(pool, ratio=2.0, device=host_device)
"""


@pytest.mark.parametrize("host_dtype, bug", [("device_pool.dtype", False), ("torch.float32", True)])
def test_a_host_keeping_no_token_count_is_measured_per_row(
    tmp_path, capsys, monkeypatch, host_dtype, bug
):
    """A host taking its device by the pack's name (`device_pool`) that keeps no token count,
    its pages twice its device's (`int(device_pool.num_pages * ratio)`) of the device's page
    size: measured per row it holds, of `self.page_size` tokens each (probe42/r01: it was
    measured per device token, a false LA001, 4096 vs 2048)."""
    write_tree(
        tmp_path, {"lg/__init__.py": "", "lg/ledger.py": LEDGER.replace("HOST_DTYPE", host_dtype)}
    )
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA001", "k_buffer")} if bug else set())
    pool, mirror = built_by_the_tree(
        tmp_path, monkeypatch, "lg", "ledger", "build", device="meta", host_device="meta"
    )
    real = (
        mirror.k_buffer.nbytes // (4 * 128 * 16),  # layers, pages, page size
        pool.k_buffer[0].nbytes // (64 * 16),
    )
    assert (real[0] != real[1]) is bug
    if bug:  # (the audit samples the page size; bytes per token do not depend on it)
        assert finding_figures(report)["k_buffer"] == real


DEPOTS_BASE = """
    import torch


    class DepotBase:
        def __init__(self, size, head_num, head_dim, layer_num, device):
            self.size = size
            self.head_num = head_num
            self.head_dim = head_dim
            self.layer_num = layer_num
            self.device = device
            self._create_buffers()

        def _create_buffers(self):
            raise NotImplementedError
"""

DEPOTS = """
    from dataclasses import dataclass

    import torch

    from .base import DepotBase


    @dataclass
    class DepotConfig:
        num_layers: int = 4
        num_kv_heads: int = 8
        head_dim: int = 128
        max_tokens: int = 1024
        swap_tokens: int = 4096
        device: str = "cuda"
        swap_device: str = "cpu"


    class DeviceDepot(DepotBase):
        def __init__(self, cfg):
            super().__init__(cfg.max_tokens + 1, cfg.num_kv_heads, cfg.head_dim, cfg.num_layers,
                             cfg.device)

        def _create_buffers(self):
            shape = (self.size, self.head_num, self.head_dim)
            self.k_data = [torch.empty(shape, dtype=torch.uint8, device=self.device)
                           for _ in range(self.layer_num)]


    class SwapDepot(DepotBase):
        def __init__(self, cfg):
            super().__init__(cfg.swap_tokens, HEADS, cfg.head_dim, cfg.num_layers,
                             device=cfg.swap_device)

        def _create_buffers(self):
            shape = (self.layer_num, self.size, self.head_num, self.head_dim)
            self.k_data = torch.empty(shape, dtype=torch.uint8, device=self.device)


    def make_depots(cfg=None):
        cfg = cfg or DepotConfig()
        return DeviceDepot(cfg), SwapDepot(cfg)
"""


@pytest.mark.parametrize(
    "heads, bug", [("cfg.num_kv_heads", False), ("2 * cfg.num_kv_heads", True)]
)
def test_sizes_passed_up_to_the_base_constructor(tmp_path, capsys, monkeypatch, heads, bug):
    """`super().__init__(cfg.max_tokens + 1, cfg.num_kv_heads, ...)` of a class taking only a
    config, its base keeping `self.size = size`: the base's constructor read as called, so the
    class allocates per layer over `cfg.num_layers` and per token along `cfg.max_tokens`
    (probe42/r04: neither was a pool)."""
    write_tree(
        tmp_path,
        {
            "dp/__init__.py": "",
            "dp/base.py": DEPOTS_BASE,
            "dp/depots.py": DEPOTS.replace("HEADS", heads),
        },
    )
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA001", "k_data")} if bug else set())
    # built as the tree builds them, its config's devices the meta device
    device, swap = built_from_its_config(
        tmp_path,
        monkeypatch,
        "dp",
        "depots",
        "make_depots",
        "DepotConfig",
        device="meta",
        swap_device="meta",
    )
    real = (swap.k_data.nbytes // (4 * 4096), device.k_data[0].nbytes // 1025)
    assert (real[0] != real[1]) is bug
    if bug:
        assert finding_figures(report)["k_data"] == real


RINGS = """
    import torch


    class PagedRing:
        def __init__(self, num_pages, page_size, head_num, head_dim, layer_num, device,
                     dtype=torch.bfloat16):
            shape = (num_pages, page_size, head_num, head_dim)
            self.k_data = [torch.empty(shape, dtype=dtype, device=device) for _ in range(layer_num)]


    class Fp8PagedRing(PagedRing):
        def __init__(self, num_pages, page_size, head_num, head_dim, layer_num, device):
            super().__init__(num_pages, page_size, head_num, head_dim, layer_num, device,
                             dtype=torch.float8_e4m3fn)
            self.k_scale = [torch.empty((num_pages, page_size), dtype=torch.float32,
                                        device=device) for _ in range(layer_num)]


    RINGS = {"none": PagedRing, "fp8": Fp8PagedRing}
"""

SENDER = """
    import torch


    class SendRing:
        def __init__(self, num_pages, page_size, head_num, head_dim, layer_num, device):
            shape = (num_pages, layer_num, page_size, head_num, head_dim)
            self.k_data = torch.empty(shape, dtype=torch.uint8, device=device)
            self.k_scale = torch.empty((num_pages, layer_num, page_size), dtype=SCALE,
                                       device=device)
"""

LAUNCH = """
    from dataclasses import dataclass

    from .rings import RINGS
    from .sender import SendRing


    @dataclass
    class StreamConfig:
        num_layers: int = 4
        num_kv_heads: int = 8
        head_dim: int = 128
        page_size: int = 16
        num_pages: int = 64
        send_pages: int = 16
        kv_quant: str = "fp8"
        device: str = "cuda"
        send_device: str = "cuda"


    def build(cfg=None):
        cfg = cfg or StreamConfig()
        geometry = (cfg.page_size, cfg.num_kv_heads, cfg.head_dim, cfg.num_layers)
        ring = RINGS[cfg.kv_quant](cfg.num_pages, *geometry, cfg.device)
        sender = SendRing(cfg.send_pages, *geometry, cfg.send_device)
        return ring, sender
"""


@pytest.mark.parametrize("scale, bug", [("torch.float32", False), ("torch.float16", True)])
@pytest.mark.parametrize(
    "spelling",
    [
        "ring = RINGS[cfg.kv_quant](cfg.num_pages, *geometry, cfg.device)",
        "ring_cls = RINGS[cfg.kv_quant]\n        ring = ring_cls(cfg.num_pages, *geometry, cfg.device)",
    ],
    ids=["called", "bound"],
)
def test_a_class_chosen_from_another_modules_table_beside_its_sender(
    tmp_path, capsys, monkeypatch, scale, bug, spelling
):
    """`RINGS[cfg.kv_quant](cfg.num_pages, *geometry, cfg.device)`, the dict imported from
    the module defining the classes, beside a sender given the same `*geometry` (a tuple of
    `cfg`'s attributes, `cfg` bound before it by `cfg = cfg or StreamConfig()`): paired
    (probe42/r08: no pair)."""
    write_tree(
        tmp_path,
        {
            "ks/__init__.py": "",
            "ks/rings.py": RINGS,
            "ks/sender.py": SENDER.replace("SCALE", scale),
            "ks/launch.py": LAUNCH.replace(
                "ring = RINGS[cfg.kv_quant](cfg.num_pages, *geometry, cfg.device)", spelling
            ),
        },
    )
    report = audit_json(tmp_path, capsys)
    compared = [p for p in report["coverage"] if p["compared"]]
    assert [(p["host"], p["device"]) for p in compared] == [("SendRing", "Fp8PagedRing")]
    findings = {(f["code"], f["message"].split(":", 1)[0]) for f in report["findings"]}
    assert findings == ({("LA001", "k_scale")} if bug else set())
    ring, sender = built_from_its_config(
        tmp_path,
        monkeypatch,
        "ks",
        "launch",
        "build",
        "StreamConfig",
        device="meta",
        send_device="meta",
    )
    real = (sender.k_scale.nbytes // (4 * 16 * 16), ring.k_scale[0].nbytes // (64 * 16))
    assert (real[0] != real[1]) is bug
    if bug:
        assert finding_figures(report)["k_scale"] == real


def test_a_name_bound_otherwise_too_is_no_choice_of_classes(tmp_path, capsys):
    """`stash_cls` also bound by a walrus (`(stash_cls := pick(cfg))`): which class it holds
    at the call is not the arms' (a review of the branch-bound names): no pair by it."""
    tree = PICKED.replace("ROPE", "cfg.qk_rope_head_dim").replace(
        "        return store_cls(cfg, device=device), stash_cls(cfg, device=host_device)",
        "        if (stash_cls := pick(cfg)) is None:\n"
        "            pass\n"
        "        return store_cls(cfg, device=device), stash_cls(cfg, device=host_device)",
    )
    assert "stash_cls := pick(cfg)" in tree
    write_tree(tmp_path, {"pw/__init__.py": "", "pw/stores.py": tree})
    report = audit_json(tmp_path, capsys)
    assert not any(p["host"].endswith("Stash") for p in report["coverage"])


def test_a_host_left_unknown_keeps_its_own_reason(tmp_path, capsys):
    """The per-row measure of a host keeping no token count is for a host built whole: one
    whose build is unknown (`outside_helper()` is not in the tree) keeps that reason (a corpus
    run: it had been replaced by "no parameter or attribute was found to count its tokens")."""
    tree = LEDGER.replace("HOST_DTYPE", "device_pool.dtype").replace(
        "int(device_pool.num_pages * ratio)",
        "int(device_pool.num_pages * ratio * outside_helper())",
    )
    assert "outside_helper()" in tree
    write_tree(tmp_path, {"lu/__init__.py": "", "lu/ledger.py": tree})
    from pathlib import Path

    from auditor.cli import main

    main([str(Path(tmp_path)), "--no-cache", "--isolated", "--show-unresolved"])
    out = capsys.readouterr().out
    assert "outside_helper" in out
    assert "no parameter or attribute was found to count its tokens" not in out
