"""Enum classes iterated and initialised, sets, and texts behind samples (session 43, probe50
r01 and r06): `for fmt in CacheFormat: if fmt.flag == flag` over an enum whose `__init__`
unpacks each member's value tuple gave "loop over a value not modelled"; a config dict's
`cfg["kv_cache_dtype"]`, sampled as a number, compared with the member's text demanded
nothing, so no point was feasible; `kv_cache_dtype="auto"` read with `.startswith` was taken
for a config object; `set(layers)` was no name at all."""

from __future__ import annotations

import pytest
from helpers import audit_json, evaluate, finding_figures, tree_modules, write_tree

_ENUM = """
    import enum
    import itertools

    class Fmt(enum.Enum):
        HALF = ("half", 2)
        BYTE = ("byte", 1)
        ALSO_HALF = ("half", 2)  # an alias: not iterated

        def __init__(self, flag, width):
            self.flag = flag
            self.width = width

        @classmethod
        def parse(cls, flag):
            for member in cls:
                if member.flag == flag:
                    return member
            raise ValueError(flag)
"""


@pytest.mark.parametrize(
    "expression, expected",
    [
        ("(Fmt.BYTE.flag, Fmt.BYTE.width, Fmt.BYTE.value)", ("byte", 1, ("byte", 1))),
        ("Fmt.parse('byte').width", 1),
        ("[m.name for m in Fmt]", ["HALF", "BYTE"]),
        ("len(list(Fmt))", 2),
        ("sorted(set([3, 1, 3]))", [1, 3]),
        ("2 in frozenset((1, 2))", True),
        ("[i for i in range(4) if i not in set([1, 2])]", [0, 3]),
        ("dict(zip(['a', 'b'], [1, 2]))", {"a": 1, "b": 2}),
        ("dict(itertools.chain([(0, 'x')], ((i, 'y') for i in (1, 2))))", {0: "x", 1: "y", 2: "y"}),
    ],
)
def test_each_gives_what_python_gives(tmp_path, expression, expected):
    assert evaluate(tmp_path, expression, _ENUM) == expected


def _swap_tree(host_width: str) -> dict[str, str]:
    """Pools reading a plain engine dict and a model dict, the format through an enum's
    classmethod looping over its members; the swap side counts `host_width` bytes an element."""
    return {
        "swapkv/__init__.py": "",
        "swapkv/formats.py": """
            import enum

            import torch


            class CacheFormat(enum.Enum):
                BF16 = ("bf16", torch.bfloat16, 2)
                FP8 = ("fp8", torch.float8_e4m3fn, 1)

                def __init__(self, flag, torch_dtype, itemsize):
                    self.flag = flag
                    self.torch_dtype = torch_dtype
                    self.itemsize = itemsize

                @classmethod
                def resolve(cls, flag):
                    if flag == "auto":
                        flag = "bf16"
                    for member in cls:
                        if member.flag == flag:
                            return member
                    raise ValueError(flag)
        """,
        "swapkv/gpu.py": """
            import torch

            from .formats import CacheFormat


            class BlockCache:
                def __init__(self, engine, model, device="cuda"):
                    fmt = CacheFormat.resolve(engine["kv_cache_dtype"])
                    heads = model["num_kv_heads"] // engine["tp"]
                    self.blocks = [
                        torch.empty((engine["num_blocks"], engine["block_size"], heads,
                                     model["head_dim"]), dtype=fmt.torch_dtype, device=device)
                        for _ in range(model["num_layers"])
                    ]
        """,
        "swapkv/swap.py": f"""
            import torch

            from .formats import CacheFormat


            class SwapSpace:
                def __init__(self, engine, model, device="cpu"):
                    fmt = CacheFormat.resolve(engine["kv_cache_dtype"])
                    heads = model["num_kv_heads"] // engine["tp"]
                    row = engine["block_size"] * heads * model["head_dim"] * {host_width}
                    self.blocks = [
                        torch.empty((engine["swap_blocks"], row), dtype=torch.uint8, device=device)
                        for _ in range(model["num_layers"])
                    ]
        """,
        "swapkv/engine.py": """
            from .gpu import BlockCache
            from .swap import SwapSpace


            def make(engine, model, device="cuda", swap_device="cpu"):
                return BlockCache(engine, model, device=device), SwapSpace(
                    engine, model, device=swap_device)
        """,
    }


@pytest.mark.parametrize("width, drifted", [("fmt.itemsize", False), ("2", True)])
def test_pools_resolving_their_format_through_an_enum_loop_are_compared(
    tmp_path, capsys, monkeypatch, width, drifted
):
    root = write_tree(tmp_path, _swap_tree(width))
    report = audit_json(root, capsys)
    summary = report["summary"]
    assert summary["pairs_compared"] == summary["pairs"] == 1
    [engine] = tree_modules(root, monkeypatch, "swapkv", "engine")
    real = {}
    for flag in ("auto", "fp8"):
        cfg = {"kv_cache_dtype": flag, "tp": 1, "num_blocks": 8, "block_size": 16, "swap_blocks": 4}
        model = {"num_kv_heads": 8, "head_dim": 128, "num_layers": 2}
        gpu, swap = engine.make(cfg, model, device="meta", swap_device="meta")
        real[flag] = (swap.blocks[0].nbytes // 4, gpu.blocks[0].nbytes // 8)
    assert (real["fp8"][0] != real["fp8"][1]) == drifted
    figures = finding_figures(report)
    if not drifted:
        assert figures == {}
        return
    [finding] = report["findings"]
    assert "kv_cache_dtype=fp8" in finding["message"]
    host, device = figures["blocks"]  # (per token at the finding's own sizes)
    assert host * real["fp8"][1] == device * real["fp8"][0] and host == 2 * device


def _mirror_tree(fp8_names: str) -> dict[str, str]:
    """A device pool taking `kv_cache_dtype="auto"` (a text it calls `.startswith` on) and a
    host mirror built from it by a classmethod, mapping the name with `in (None, "auto")`."""
    return {
        "tiered/__init__.py": "",
        "tiered/gpu.py": """
            import torch

            NAMES = {"bf16": torch.bfloat16, "fp8_e4m3": torch.float8_e4m3fn,
                     "fp8_e5m2": torch.float8_e5m2}


            def scaled(name):
                return name is not None and name.startswith("fp8")


            class KVPool:
                def __init__(self, size, layer_num, heads, head_dim, kv_cache_dtype="auto",
                             device="cuda"):
                    self.size, self.layer_num = size, layer_num
                    self.heads, self.head_dim = heads, head_dim
                    self.kv_cache_dtype = kv_cache_dtype
                    name = "bf16" if kv_cache_dtype in (None, "auto") else kv_cache_dtype
                    self.k = [torch.empty((size, heads, head_dim), dtype=NAMES[name],
                                          device=device) for _ in range(layer_num)]
                    if scaled(kv_cache_dtype):
                        self.k_scale = [torch.empty((size, heads), dtype=torch.float32,
                                                    device=device) for _ in range(layer_num)]
        """,
        "tiered/host.py": f"""
            import torch

            WIDTH = {{"bf16": 2, {fp8_names}}}


            class KVMirror:
                def __init__(self, size, layer_num, heads, head_dim, kv_cache_dtype,
                             device="cpu"):
                    name = "bf16" if kv_cache_dtype in (None, "auto") else kv_cache_dtype
                    self.k = [torch.empty((size, heads * head_dim * WIDTH[name]),
                                          dtype=torch.uint8, device=device)
                              for _ in range(layer_num)]
                    if name.startswith("fp8"):
                        self.k_scale = [torch.empty((size, heads * 4), dtype=torch.uint8,
                                                    device=device) for _ in range(layer_num)]

                @classmethod
                def of(cls, pool, size, device="cpu"):
                    return cls(size, pool.layer_num, pool.heads, pool.head_dim,
                               pool.kv_cache_dtype, device=device)
        """,
        "tiered/setup.py": """
            from .gpu import KVPool
            from .host import KVMirror


            def build(size, layers, kv_cache_dtype="auto", device="cuda", host="cpu"):
                pool = KVPool(size, layers, 8, 128, kv_cache_dtype=kv_cache_dtype,
                              device=device)
                return pool, KVMirror.of(pool, 2 * size, device=host)
        """,
    }


@pytest.mark.parametrize(
    "names, drifted",
    [
        ('"fp8_e4m3": 1, "fp8_e5m2": 1', None),
        ('"fp8_e4m3": 2, "fp8_e5m2": 1', "fp8_e4m3"),
        # the host's table sends fp8_e5m2 with bf16 (one key per width): the device's keeps
        # it apart, so it is tried
        ('"fp8_e4m3": 1, "fp8_e5m2": 2', "fp8_e5m2"),
    ],
)
def test_a_text_parameter_read_with_a_method_is_a_text_not_a_config_object(
    tmp_path, capsys, monkeypatch, names, drifted
):
    root = write_tree(tmp_path, _mirror_tree(names))
    report = audit_json(root, capsys)
    summary = report["summary"]
    assert summary["pairs_compared"] == summary["pairs"] == 1 and summary["unresolved"] == 0
    [setup] = tree_modules(root, monkeypatch, "tiered", "setup")
    real = {}
    for name in ("auto", "fp8_e4m3", "fp8_e5m2"):
        pool, mirror = setup.build(64, 2, kv_cache_dtype=name, device="meta", host="meta")
        real[name] = (mirror.k[0].nbytes // 128, pool.k[0].nbytes // 64)
    for name, (host, device) in real.items():
        assert (host != device) == (name == drifted)
    figures = finding_figures(report)
    if drifted is None:
        assert figures == {}
        return
    [finding] = report["findings"]
    assert f"kv_cache_dtype={drifted}" in finding["message"]
    assert figures["k"] == real[drifted]  # 2048 against 1024


def _grouped_tree(scale_bytes: str) -> dict[str, str]:
    """Pools reading a plain config dict that accepts one quantisation group (`!= 32`
    raises): its samples are numbers standing in for what nothing types; the int it is
    compared with is demanded and tried, as before they stood in for texts too."""
    return {
        "groupkv/__init__.py": "",
        "groupkv/pools.py": f"""
            import torch


            class GroupedPool:
                def __init__(self, cfg, device="cuda"):
                    if cfg["group"] != 32:
                        raise ValueError("only groups of 32")
                    self.kv = [torch.empty((cfg["tokens"], cfg["width"]), dtype=torch.bfloat16,
                                           device=device) for _ in range(cfg["layers"])]
                    self.scales = [torch.empty((cfg["tokens"], cfg["width"] // cfg["group"]),
                                               dtype=torch.float32, device=device)
                                   for _ in range(cfg["layers"])]


            class GroupedMirror:
                def __init__(self, cfg, device="cpu"):
                    if cfg["group"] != 32:
                        raise ValueError("only groups of 32")
                    self.kv = [torch.empty((cfg["host_tokens"], cfg["width"] * 2),
                                           dtype=torch.uint8, device=device)
                               for _ in range(cfg["layers"])]
                    self.scales = [torch.empty((cfg["host_tokens"], cfg["width"] // cfg["group"]
                                                * {scale_bytes}), dtype=torch.uint8, device=device)
                                   for _ in range(cfg["layers"])]


            def make(cfg, device="cuda", host="cpu"):
                return GroupedPool(cfg, device=device), GroupedMirror(cfg, device=host)
        """,
    }


@pytest.mark.parametrize("scale_bytes, drifted", [("4", False), ("2", True)])
def test_an_int_a_sampled_attribute_must_be_is_demanded(
    tmp_path, capsys, monkeypatch, scale_bytes, drifted
):
    root = write_tree(tmp_path, _grouped_tree(scale_bytes))
    report = audit_json(root, capsys)
    summary = report["summary"]
    assert summary["pairs_compared"] == summary["pairs"] == 1
    [pools] = tree_modules(root, monkeypatch, "groupkv", "pools")
    cfg = {"group": 32, "tokens": 64, "width": 256, "host_tokens": 128, "layers": 2}
    gpu, cpu = pools.make(cfg, device="meta", host="meta")
    real = (cpu.scales[0].nbytes // 128, gpu.scales[0].nbytes // 64)
    assert (real[0] != real[1]) == drifted
    figures = finding_figures(report)
    if not drifted:
        assert figures == {}
        return
    [finding] = report["findings"]
    assert "group=32" in finding["message"]
    host, device = figures["scales"]
    assert host * real[1] == device * real[0] and 2 * host == device
