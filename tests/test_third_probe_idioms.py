"""Idioms from a third probe of codebases written as other teams would (issue 14,
tests/data/probe17), each as a small tree of its own names, audited with no configuration:
config objects nesting dataclasses (`cache: CacheSpec = field(default_factory=CacheSpec)`) whose
dtype string indexes a table, a dtype chosen by a helper function testing its parameter, hosts
sized by a byte budget (rows that do not follow the device's tokens), and a device-only buffer
sized by a parameter nothing gives."""

from __future__ import annotations

import json

import pytest
from helpers import write_tree

from auditor.cli import main


def audit(root, capsys) -> dict:
    code = main([str(root), "--no-cache", "--isolated", "--output-format", "json"])
    report = json.loads(capsys.readouterr().out)
    report["exit"] = code
    return report


def found(report: dict) -> set[tuple[str, str]]:
    return {(f["code"], f["message"].split(":", 1)[0]) for f in report["findings"]}


NESTED = """
    from dataclasses import dataclass, field

    import torch

    TABLE = {"half": torch.float16, "full": torch.float32}


    @dataclass
    class Shape:
        depth: int = 4
        width: int = 64


    @dataclass
    class Store:
        kind: str = "half"
        tokens: int = 1024


    @dataclass
    class Settings:
        shape: Shape = field(default_factory=Shape)
        store: Store = Store()


    class Slabs:
        def __init__(self, cfg: Settings):
            self.cfg = cfg
            self.tokens = cfg.store.tokens
            self.dtype = TABLE[cfg.store.kind]
            self.slabs = [
                torch.empty((self.tokens, cfg.shape.width), dtype=self.dtype)
                for _ in range(cfg.shape.depth)
            ]


    class Backup:
        def __init__(self, slabs: Slabs, factor: float = 2.0):
            self.tokens = int(slabs.tokens * factor)
            self.slabs = [
                torch.empty((self.tokens, slabs.cfg.shape.width), dtype=DTYPE)
                for _ in range(slabs.cfg.shape.depth)
            ]
"""


@pytest.mark.parametrize("dtype", ["slabs.dtype", "torch.float16"])
def test_a_nested_dataclass_field_default_and_its_table_keys_are_explored(tmp_path, capsys, dtype):
    write_tree(tmp_path, {"n/__init__.py": "", "n/pools.py": NESTED.replace("DTYPE", dtype)})
    report = audit(tmp_path, capsys)
    assert report["summary"]["pairs_compared"] == 1 and report["summary"]["unresolved"] == 0
    if dtype == "slabs.dtype":
        assert report["exit"] == 0 and report["findings"] == []
        return
    # the host writes fp16 whatever `cfg.store.kind` says: wrong at the table's other key only
    assert found(report) == {("LA001", "slabs")}
    message = report["findings"][0]["message"]
    # at the default width (64) first: the config class's defaults lead the points
    assert "Settings.store.kind=full" in message and "128 B/token/layer vs 256" in message
    assert "(2 of 4 config points)" in message  # at each width, the default "half" agrees


HELPER = """
    import torch


    def storage_dtype(mode: str):
        if mode == "plain":
            return torch.bfloat16
        if mode in ("q8", "q8_e4m3"):
            return torch.float8_e4m3fn
        raise ValueError(mode)


    class Arena:
        def __init__(self, depth, rows, width, mode="plain"):
            self.depth, self.rows, self.width, self.mode = depth, rows, width, mode
            self.dtype = storage_dtype(mode)
            self.kv = torch.zeros((2, depth, rows, width), dtype=self.dtype)


    class Spill:
        def __init__(self, arena, extra=3):
            self.rows = arena.rows * extra
            dtype = HOST
            self.kv = torch.empty((2, arena.depth, self.rows, arena.width), dtype=dtype)
"""


@pytest.mark.parametrize(
    "host, bug",
    [
        ("arena.dtype", False),
        ('torch.uint8 if arena.mode == "q8" else torch.bfloat16', True),
    ],
)
def test_a_flag_a_helper_function_tests_is_explored_at_its_literals(tmp_path, capsys, host, bug):
    write_tree(tmp_path, {"h/__init__.py": "", "h/pools.py": HELPER.replace("HOST", host)})
    report = audit(tmp_path, capsys)
    summary = report["summary"]
    assert summary["pairs_compared"] == 1 and summary["unresolved"] == 0
    assert summary["config_points"] == 3  # plain, q8, q8_e4m3
    if not bug:
        assert report["findings"] == []
        return
    # the host knows "q8" only: "q8_e4m3" keeps bf16 rows against the device's fp8 ones
    assert found(report) == {("LA001", "kv")}
    message = report["findings"][0]["message"]
    assert "mode=q8_e4m3" in message and "(1 of 3 config points)" in message


BUDGET = """
    import torch

    GIB = 1 << 30


    class Device:
        def __init__(self, n_layers: int, n_tokens: int, dim: int = 256):
            self.n_layers, self.n_tokens, self.dim = n_layers, n_tokens, dim
            self.rows = [torch.empty((n_tokens, dim), dtype=torch.bfloat16) for _ in range(n_layers)]
            self.keys = [torch.empty((n_tokens, 132), dtype=torch.uint8) for _ in range(n_layers)]


    class Budgeted:
        def __init__(self, dev: Device, gib: float = 4.0):
            per_token = dev.n_layers * (dev.dim * 2 + 132)
            self.count = int(gib * GIB) // per_token
            self.rows = [torch.empty((self.count PAD, dev.dim), dtype=torch.bfloat16)
                         for _ in range(dev.n_layers)]
            self.keys = [torch.empty((self.count, KEYS), dtype=torch.uint8)
                         for _ in range(dev.n_layers)]
"""


@pytest.mark.parametrize(
    "pad, keys, expect",
    [("", "132", "clean"), ("", "128", "LA001"), ("+ 1", "132", "unresolved")],
)
def test_a_host_sized_by_a_byte_budget_is_measured_per_row_it_holds(
    tmp_path, capsys, pad, keys, expect
):
    source = BUDGET.replace("PAD", pad).replace("KEYS", keys)
    write_tree(tmp_path, {"b/__init__.py": "", "b/pools.py": source})
    report = audit(tmp_path, capsys)
    summary = report["summary"]
    if expect == "unresolved":
        # a padding row makes bytes / (rows x layers) differ between builds: never guessed
        assert report["findings"] == [] and summary["unresolved"] == 1
        main([str(tmp_path), "--no-cache", "--isolated", "--show-unresolved"])
        text = capsys.readouterr().out
        assert "Budgeted.rows: pool size did not follow the token or layer count" in text
        return
    assert summary["pairs_compared"] == 1 and summary["unresolved"] == 0
    if expect == "clean":
        assert report["findings"] == []
        return
    assert found(report) == {("LA001", "keys")}
    message = report["findings"][0]["message"]
    assert "128 B/token/layer vs 132 B/token/layer" in message and "per row held" in message


SCALES = """
    import torch


    class Hbm:
        def __init__(self, depth, slots, heads, width):
            self.depth, self.slots, self.heads, self.width = depth, slots, heads, width
            self.data = torch.empty((depth, 2, slots, heads, width), dtype=torch.float8_e4m3fn)
            self.scale = torch.ones((depth, 2, slots, heads), dtype=torch.float32)


    class Dram:
        def __init__(self, hbm, ratio=2.0):
            self.slots = int(hbm.slots * ratio)
            self.data = torch.empty((hbm.depth, 2, self.slots, hbm.heads, hbm.width),
                                    dtype=torch.uint8)
            MIRROR
"""


@pytest.mark.parametrize("mirrored", [False, True])
def test_a_device_only_buffer_sized_by_a_free_parameter_is_unmirrored_at_any_value(
    tmp_path, capsys, mirrored
):
    mirror = (
        "self.scale = torch.empty((hbm.depth, 2, self.slots, hbm.heads), dtype=torch.float32)"
        if mirrored
        else "pass"
    )
    write_tree(tmp_path, {"s/__init__.py": "", "s/pools.py": SCALES.replace("MIRROR", mirror)})
    report = audit(tmp_path, capsys)
    assert report["summary"]["pairs_compared"] == 1 and report["summary"]["unresolved"] == 0
    if mirrored:
        assert report["findings"] == []
        return
    assert found(report) == {("LA003", "scale")}
    message = report["findings"][0]["message"]
    assert "it holds bytes at any value" in message and "heads" in message


def test_a_byte_budget_leading_several_buffers_is_no_token_count(tmp_path, capsys):
    """Two buffers leading with `self.count` computed from `gib`: `gib` gets two votes per
    buffer, but it counts no tokens; the host's own count does."""
    source = BUDGET.replace("PAD", "").replace("KEYS", "132")
    write_tree(tmp_path, {"b/__init__.py": "", "b/pools.py": source})
    code = main([str(tmp_path), "--no-cache", "--isolated", "--show-pools"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.count("per row held (self.count,") == 2  # both host buffers, per row held


PROPERTY = """
    import torch


    class Rows:
        def __init__(self, n_layers, capacity, width=576, device="cpu"):
            self.n_layers, self.capacity, self._row = n_layers, capacity, width
            self.data = [torch.empty((capacity, self.row), dtype=torch.bfloat16, device=device)
                         for _ in range(n_layers)]

        @property
        def row(self):
            return self._row


    class Shadow:
        def __init__(self, src, capacity, device="cpu"):
            self._width = src.row WIDTH
            self.n_layers = src.n_layers
            self.data = [torch.empty((capacity, self.width), dtype=torch.bfloat16, device=device)
                         for _ in range(src.n_layers)]

        @property
        def width(self):
            return self._width
"""


@pytest.mark.parametrize("width, bug", [("", False), ("- 64", True)])
def test_a_host_sizing_its_rows_through_a_property_of_a_device_figure_is_a_host(
    tmp_path, capsys, width, bug
):
    write_tree(tmp_path, {"p/__init__.py": "", "p/pools.py": PROPERTY.replace("WIDTH", width)})
    report = audit(tmp_path, capsys)
    assert report["summary"]["host_pools"] == 1 and report["summary"]["pairs_compared"] == 1
    assert found(report) == ({("LA001", "data")} if bug else set())


UNFINISHED = """
    import torch


    class Store:
        def __init__(self, n_layers, capacity):
            self.n_layers, self.capacity = n_layers, capacity
            self._make()

        def _make(self):
            self.rows = [torch.empty((self.capacity, self.width), dtype=torch.bfloat16)
                         for _ in range(self.n_layers)]

        @property
        def width(self):
            raise NotImplementedError


    class LatentStore(Store):
        @property
        def width(self):
            return 576


    class Mirror:
        def __init__(self, gpu: Store, capacity: int = 1024):
            self.n_layers = gpu.n_layers
            self.rows = [torch.empty((capacity, gpu.width), dtype=torch.bfloat16)
                         for _ in range(gpu.n_layers)]
"""


def test_a_base_whose_subclasses_say_its_row_width_is_no_device_pool(tmp_path, capsys):
    """`Store` raises NotImplementedError when built (its `width`): its subclass is the pool;
    before, the pair with `Store` was "never compared: no feasible config point"."""
    write_tree(tmp_path, {"u/__init__.py": "", "u/pools.py": UNFINISHED})
    report = audit(tmp_path, capsys)
    summary = report["summary"]
    assert summary["device_pools"] == 1 and summary["pairs"] == summary["pairs_compared"] == 1
    assert report["exit"] == 0 and summary["unresolved"] == 0
    assert [c["device"] for c in report["coverage"]] == ["LatentStore"]


STAGE = """
    import torch


    class StagePool:
        def __init__(self, tokens, lo, hi, width=576, dtype=torch.bfloat16):
            self.tokens, self.lo, self.hi, self.dtype, self.width = tokens, lo, hi, dtype, width
            self.rows = [torch.zeros((tokens + 1, self.width), dtype=dtype)
                         for _ in range(lo, hi)]


    class StageHost:
        def __init__(self, dev: StagePool, factor: float = 2.0):
            self.tokens = int(dev.tokens * factor)
            self.rows = [torch.empty((self.tokens, WIDTH), dtype=dev.dtype)
                         for _ in range(dev.hi - dev.lo)]
"""


@pytest.mark.parametrize("width, bug", [("dev.width", False), ("512", True)])
def test_the_layers_of_a_pipeline_stage_are_counted_by_its_range(tmp_path, capsys, width, bug):
    """`range(lo, hi)`: the stop counts the layers when the stage starts at 0 (before, `lo`
    and `hi` tied for the layer count and the class was no pool)."""
    write_tree(tmp_path, {"st/__init__.py": "", "st/pools.py": STAGE.replace("WIDTH", width)})
    report = audit(tmp_path, capsys)
    summary = report["summary"]
    assert summary["device_pools"] == 1 and summary["pairs_compared"] == summary["pairs"] == 1
    assert summary["unresolved"] == 0
    assert found(report) == ({("LA001", "rows")} if bug else set())
    if bug:
        assert "1024 B/token/layer vs 1152 B/token/layer" in report["findings"][0]["message"]


PAGED = """
    from dataclasses import dataclass

    import torch


    @dataclass
    class Spec:
        layers: int = 4
        block_size: int = 16
        heads: int = 8
        dim: int = 64


    class Blocks:
        def __init__(self, spec: Spec, num_blocks: int):
            self.spec = spec
            shape = (num_blocks, spec.block_size, spec.heads, spec.dim)
            self.key_blocks = [torch.empty(shape, dtype=torch.float16) for _ in range(spec.layers)]

        def block_shape(self):
            return tuple(self.key_blocks[0].shape[1:])


    class Swap:
        def __init__(self, store: Blocks, num_cpu_blocks: int):
            shape = (num_cpu_blocks,) + store.block_shape()
            self.key_blocks = [torch.empty(shape, dtype=DTYPE) for _ in range(store.spec.layers)]
"""


@pytest.mark.parametrize("dtype, bug", [("torch.float16", False), ("torch.float32", True)])
def test_blocks_sized_by_a_config_block_size_are_measured_per_token(tmp_path, capsys, dtype, bug):
    """The device reads its block size off its config object (`spec.block_size`, not kept on
    self): the config value counts its tokens; the host, naming none, takes its device's."""
    write_tree(tmp_path, {"pg/__init__.py": "", "pg/pools.py": PAGED.replace("DTYPE", dtype)})
    report = audit(tmp_path, capsys)
    summary = report["summary"]
    assert summary["pairs_compared"] == summary["pairs"] == 1 and summary["unresolved"] == 0
    assert found(report) == ({("LA001", "key_blocks")} if bug else set())
    if bug:
        message = report["findings"][0]["message"]
        assert "tokens per block: its device's" in message
