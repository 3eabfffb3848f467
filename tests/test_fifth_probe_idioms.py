"""Idioms from the fourth probe's second pass and a fifth probe of codebases written as other
teams would (issue 14; tests/data/probe18 and probe19), each under names of its own, audited
with no configuration: configs given as plain dicts (read through helper functions) or as a
configparser, dtypes chosen by an enum built from a config string, a host splitting the
device's stacked K/V storage into two buffers, a buffer the two sides switch by different
flags, allocations made by a local closure, a device sized by a byte budget, and a shape
unpacked with a starred target."""

from __future__ import annotations

import json

import pytest
from helpers import write_tree

from auditor.cli import main


def audit(root, capsys, *extra: str) -> dict:
    code = main([str(root), "--no-cache", "--isolated", "--output-format", "json", *extra])
    report = json.loads(capsys.readouterr().out)
    report["exit"] = code
    return report


def found(report: dict) -> list[tuple[str, str]]:
    return sorted((f["code"], f["message"].split(":", 1)[0]) for f in report["findings"])


def compared_clean(report: dict) -> bool:
    summary = report["summary"]
    return (
        report["exit"] == 0
        and report["findings"] == []
        and summary["pairs"] == summary["pairs_compared"] >= 1
        and summary["unresolved"] == 0
    )


DICT_CONFIG = """
    import torch

    def row_width(c):
        return c["lora_rank"] + c["rope_dim"]

    def key_row(c):
        d = c["key_dim"]
        if c.get("packed", True):
            return d + d // 128 * 4, torch.uint8
        return d, torch.bfloat16

    class Stage:
        def __init__(self, c, n_rows, first, last, device="cpu"):
            self.c = c
            self.first, self.last = first, last
            self.dtype = c["dtype"]
            width, kdt = key_row(c)
            self.rows, self.keys = [], []
            for _ in range(first, last):
                self.rows.append(torch.zeros(n_rows, row_width(c), dtype=self.dtype, device=device))
                self.keys.append(torch.zeros((n_rows, width), dtype=kdt, device=device))

        @property
        def depth(self):
            return self.last - self.first

    class Spill:
        def __init__(self, stage: Stage, n_rows: int):
            c = stage.c
            width, kdt = key_row(c)
            self.rows = torch.empty(stage.depth, n_rows, row_width(c), dtype=stage.dtype)
            self.keys = torch.empty(stage.depth, n_rows, KEYS, dtype=kdt)

    def make(c, rows=64, spill=128):
        s = Stage(c, rows, 0, c["layers"])
        return s, Spill(s, spill)
"""


@pytest.mark.parametrize("keys, bug", [("width", False), ("c['key_dim']", True)])
def test_a_plain_dict_config_read_through_helper_functions(tmp_path, capsys, keys, bug):
    """`c["lora_rank"]`, `c.get("packed", True)` inside helpers the pools call: the dict's keys
    are config values, the flag explored; the host dropping the packed scales is reported."""
    write_tree(tmp_path, {"d/__init__.py": "", "d/pools.py": DICT_CONFIG.replace("KEYS", keys)})
    report = audit(tmp_path, capsys)
    if not bug:
        assert compared_clean(report)
        return
    assert found(report) == [("LA001", "keys")]
    message = report["findings"][0]["message"]
    assert "config.packed=True" in message  # the packed layout only: unpacked rows agree


INI = """
    import enum

    import torch

    class Kind(enum.Enum):
        HALF = "half"
        BYTE = "byte"

        @property
        def dtype(self):
            return {"half": torch.float16, "byte": torch.uint8}[self.value]

    def width(cp):
        dim = cp.getint("model", "dim")
        align = cp.getint("cache", "align", fallback=0)
        return -(-dim // align) * align if align else dim

    class Sender:
        def __init__(self, cp, device="cpu"):
            self.depth = cp.getint("model", "depth")
            self.slots = cp.getint("send", "slots")
            kind = Kind(cp.get("cache", "kind"))
            self.blocks = [torch.zeros((self.slots, width(cp)), dtype=kind.dtype, device=device)
                           for _ in range(self.depth)]

    class Receiver:
        def __init__(self, cp, device="cpu"):
            self.depth = cp.getint("model", "depth")
            self.slots = cp.getint("recv", "slots")
            kind = Kind(cp.get("cache", "kind"))
            self.blocks = [torch.zeros((self.slots, WIDTH), dtype=kind.dtype, device=device)
                           for _ in range(self.depth)]

    def pair(cp):
        return Sender(cp), Receiver(cp)
"""


@pytest.mark.parametrize("width, bug", [("width(cp)", False), ('cp.getint("model", "dim")', True)])
def test_a_configparser_config_and_an_enum_dtype_on_siblings(tmp_path, capsys, width, bug):
    """`cp.getint("model", "depth")`, `cp.getint("cache", "align", fallback=0)` and `Kind(cp.get(
    "cache", "kind"))`: sections' options are config values, the enum's values the kinds; the
    receiver ignoring the alignment the sender pads to is reported."""
    write_tree(tmp_path, {"x/__init__.py": "", "x/peers.py": INI.replace("WIDTH", width)})
    report = audit(tmp_path, capsys)
    if not bug:
        assert compared_clean(report)
        return
    assert found(report) == [("LA001", "blocks")]
    assert report["findings"][0]["pairing_evidence"]["kind"] == "sibling"


def test_the_enum_values_are_the_dtype_flag(tmp_path, capsys):
    write_tree(tmp_path, {"x/__init__.py": "", "x/peers.py": INI.replace("WIDTH", "width(cp)")})
    main([str(tmp_path), "--no-cache", "--isolated", "--show-pools"])
    text = capsys.readouterr().out
    assert "config.cache.kind=half" in text and "config.cache.kind=byte" in text


STACKED = """
    from dataclasses import dataclass

    import torch

    @dataclass
    class Conf:
        depth: int = 4
        heads: int = 2
        dim: int = 64
        rows: int = 32

    class Slab:
        def __init__(self, conf: Conf, device="cpu"):
            self.depth, self.rows, self.heads, self.dim = conf.depth, conf.rows, conf.heads, conf.dim
            self.dtype = torch.bfloat16
            self.kv = torch.zeros((2, self.depth, self.rows + 1, self.heads, self.dim), dtype=self.dtype)

    class Parking:
        def __init__(self, slab: Slab, factor: float):
            self.rows = int(slab.rows * factor)
            shape = (self.rows, slab.heads, slab.dim)
            self.keys = [torch.empty(shape, dtype=slab.dtype) for _ in range(slab.depth)]
            self.values = [torch.empty(shape, dtype=VDTYPE) for _ in range(slab.depth)]

    def build(conf=None):
        conf = conf or Conf()
        slab = Slab(conf)
        return slab, Parking(slab, 2.0)
"""


@pytest.mark.parametrize("vdtype, bug", [("slab.dtype", False), ("torch.float32", True)])
def test_a_host_splitting_the_stacked_device_storage_is_compared_as_one(
    tmp_path, capsys, vdtype, bug
):
    """The device stacks K and V in one `kv`, the host keeps `keys` and `values`: no name
    matches, each side holds its storage whole, so their sums are compared."""
    write_tree(tmp_path, {"s/__init__.py": "", "s/slab.py": STACKED.replace("VDTYPE", vdtype)})
    report = audit(tmp_path, capsys)
    if not bug:
        assert compared_clean(report)
        return
    assert found(report) == [("LA001", "keys + values")]
    message = report["findings"][0]["message"]
    assert "768 B/token/layer vs 512 B/token/layer" in message  # 256 + 512 against 2 x 256


FLAGS = """
    import torch

    class Hbm:
        def __init__(self, st: dict, device="cpu"):
            self.depth = st["depth"]
            self.slots = st["slots"]
            self.data = torch.empty((self.depth, 2, self.slots, st["heads"], 64), dtype=torch.float8_e4m3fn)
            self.scales = None
            if st["scales"]:
                self.scales = torch.ones((self.depth, self.slots, 2, st["heads"]), dtype=torch.float32)

    class Staging:
        def __init__(self, st: dict, device="cpu"):
            self.depth = st["depth"]
            self.slots = st["staging_slots"]
            self.data = torch.empty((self.depth, 2, self.slots, st["heads"], 64), dtype=torch.float8_e4m3fn)
            self.scales = None
            if st.get(KEY, False):
                self.scales = torch.empty((self.depth, self.slots, 2, st["heads"]), dtype=torch.float32)

    def stack(st):
        return Hbm(st), Staging(st)
"""


@pytest.mark.parametrize("key, bug", [('"scales"', False), ('"staged_scales"', True)])
def test_a_buffer_the_sides_switch_by_different_flags(tmp_path, capsys, key, bug):
    """The device keeps scales under `st["scales"]`, the staging side under another key: at
    the points where the device holds them and the staging side does not, LA003 says so."""
    write_tree(tmp_path, {"f/__init__.py": "", "f/kv.py": FLAGS.replace("KEY", key)})
    report = audit(tmp_path, capsys)
    if not bug:
        assert compared_clean(report)
        return
    assert found(report) == [("LA003", "scales")]
    message = report["findings"][0]["message"]
    assert "copies at other config points but not at these" in message
    assert "dict.scales=True, dict.staged_scales=False" in message  # `st: dict`: its keys


CLOSURE = """
    import torch

    class Blocks:
        def __init__(self, args, device="cpu"):
            self.num_blocks = args.num_gpu_blocks
            shape = (args.block_size, args.heads, args.dim)
            self.k = [torch.empty((self.num_blocks,) + shape, dtype=torch.float16) for _ in range(args.layers)]

    class Swap:
        def __init__(self, args, device="cpu"):
            self.num_blocks = args.num_cpu_blocks

            def alloc(shape, dtype):
                return torch.empty((self.num_blocks,) + shape, dtype=dtype, device=device)

            self.k = []
            for _ in range(args.layers):
                self.k.append(alloc((args.block_size, args.heads, args.dim), DTYPE))

    class Engine:
        def __init__(self, args):
            self.gpu = Blocks(args)
            self.cpu = Swap(args)
"""


@pytest.mark.parametrize("dtype, bug", [("torch.float16", False), ("torch.float32", True)])
def test_allocations_made_by_a_local_closure_are_the_class_s(tmp_path, capsys, dtype, bug):
    write_tree(tmp_path, {"c/__init__.py": "", "c/cache.py": CLOSURE.replace("DTYPE", dtype)})
    report = audit(tmp_path, capsys)
    assert report["summary"]["device_pools"] == 2  # the swap side too, through its closure
    if not bug:
        assert compared_clean(report)
        return
    assert found(report) == [("LA001", "k")]


BUDGET_DEVICE = """
    import torch

    LAYOUT = {"k": 2, "v": 2}

    def per_token(cfg):
        return cfg["layers"] * cfg["heads"] * cfg["dim"] * 4

    class Arena:
        def __init__(self, cfg, budget_bytes, device="cpu"):
            self.cfg = cfg
            self.num_slots = budget_bytes // per_token(cfg)
            self.buffers = {}
            for name in ("k", "v"):
                self.buffers[name] = [
                    torch.empty((self.num_slots, cfg["heads"], cfg["dim"]), dtype=torch.float16)
                    for _ in range(cfg["layers"])
                ]

    class Mirror:
        def __init__(self, arena: Arena, num_slots: int):
            cfg = arena.cfg
            self.buffers = {
                name: [torch.zeros((num_slots, cfg["heads"], cfg["dim"]), dtype=DTYPE)
                       for _ in range(cfg["layers"])]
                for name in ("k", "v")
            }

    def pair(cfg, budget=1 << 30, slots=4096):
        arena = Arena(cfg, budget)
        return arena, Mirror(arena, slots)
"""


@pytest.mark.parametrize("dtype, bug", [("torch.float16", False), ("torch.bfloat16", False)])
def test_a_device_sized_by_a_byte_budget_with_buffers_in_a_dict(tmp_path, capsys, dtype, bug):
    """`self.num_slots = budget_bytes // per_token(cfg)`: the budget is no token count, the
    device is measured per row it holds; `self.buffers["k"]` are buffers of their own."""
    source = BUDGET_DEVICE.replace("DTYPE", dtype)
    write_tree(tmp_path, {"b/__init__.py": "", "b/arena.py": source})
    report = audit(tmp_path, capsys)
    assert compared_clean(report)  # bf16 and fp16 are both 2 B: the bytes agree


def test_a_budget_device_s_dict_buffers_are_reported_by_key(tmp_path, capsys):
    source = BUDGET_DEVICE.replace("DTYPE", "torch.float32")
    write_tree(tmp_path, {"b/__init__.py": "", "b/arena.py": source})
    report = audit(tmp_path, capsys)
    assert found(report) == [("LA001", 'buffers["k"]'), ("LA001", 'buffers["v"]')]
    assert "per row held (self.num_slots" in report["findings"][0]["message"]


STARRED = """
    import torch

    class Device:
        def __init__(self, n_layers, n_tokens, heads=4, dim=32):
            self.kv = torch.zeros((n_layers, n_tokens, 2, heads, dim), dtype=torch.bfloat16)

    class Host:
        def __init__(self, dev: Device, capacity: int):
            n_layers, _, *row = dev.kv.shape
            self.kv = torch.empty((n_layers, capacity, *row), dtype=dev.kv.dtype)
"""


def test_a_shape_unpacked_with_a_starred_target(tmp_path, capsys):
    write_tree(tmp_path, {"u/__init__.py": "", "u/kv.py": STARRED})
    assert compared_clean(audit(tmp_path, capsys))


UNMODELLED = """
    import torch

    class Rows:
        def __init__(self, c, slots, device="cpu"):
            self.heads = c.getint("heads", raw=True)
            self.rows = [torch.empty((slots, self.heads, 64), dtype=torch.float16)
                         for _ in range(c["layers"])]
"""


def test_a_config_read_the_interpreter_does_not_model_is_unresolved_not_guessed(tmp_path, capsys):
    """`c.getint("heads", raw=True)`: a read with an argument the interpreter does not model
    (a section's plain `getint("heads")` is its option, tests/test_seventh_probe_idioms.py):
    no value is made up for it, the buffer is unresolved with the reason."""
    write_tree(tmp_path, {"m/__init__.py": "", "m/rows.py": UNMODELLED})
    main([str(tmp_path), "--no-cache", "--isolated", "--show-unresolved"])
    text = capsys.readouterr().out
    assert "config.getint() with these arguments is not modelled" in text
