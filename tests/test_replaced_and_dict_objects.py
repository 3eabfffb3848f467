"""Objects copied with changes and attributes kept in `__dict__` (session 38, probe43).

`dataclasses.replace(cfg, cache_dtype=...)` and a NamedTuple's `_replace(...)` build a new
object by its class's constructor from the old one's fields; `obj.__dict__` is the object's own
attributes, and a class's `__getattr__` answers what lookup lacks (`raise AttributeError`
meaning "no such attribute"). The interpreter's answers are compared with Python's own, run on
the same source, and the whole-tree cases with the real tensors built on torch's meta device.
"""

from __future__ import annotations

import pytest
from helpers import (
    assert_unknown,
    audit_json,
    built_from_its_config,
    evaluate,
    finding_figures,
    one_pair_verdict,
    write_tree,
)

DATACLASSES = """
    import dataclasses
    from dataclasses import dataclass, field, replace
    from typing import ClassVar, NamedTuple


    @dataclass
    class Cfg:
        block: int = 16
        dtype: str = "auto"
        heads: int = 8


    @dataclass
    class Derived(Cfg):
        width: int = 64

        def __post_init__(self):
            pass


    @dataclass
    class Cached:
        block: int = 16
        rows: int = field(init=False, default=0)


    @dataclass
    class Counted:
        block: int = 16
        seen: ClassVar[int] = 0


    class Spec(NamedTuple):
        pages: int = 128
        page_tokens: int = 64


    class Plain:
        def __init__(self):
            self.block = 16
"""


@pytest.mark.parametrize(
    "expression",
    [
        "replace(Cfg(), dtype='fp8').dtype",
        "replace(Cfg(block=32), heads=2).block",
        "dataclasses.replace(Cfg(), heads=2).heads",
        "replace(Derived(width=8), block=4).width",
        "replace(Derived(width=8), block=4).block",
        "Spec(pages=4)._replace(page_tokens=16).pages",
        "Spec()._replace(pages=256).pages",
        "[replace(Cfg(), block=b).block for b in (1, 2)][1]",
    ],
)
def test_a_copy_with_changes_is_built_as_python_builds_it(tmp_path, expression):
    """The interpreter's value is Python's, for the same source run for real."""
    import textwrap

    scope: dict = {}
    exec(textwrap.dedent(DATACLASSES), scope)  # (the test's own source, not audited code)
    assert evaluate(tmp_path, expression, DATACLASSES) == eval(expression, scope)


@pytest.mark.parametrize(
    "expression, words",
    [
        ("replace(Cached(), block=4).block", ["rows", "not an argument"]),
        ("replace(Counted(), block=4).block", ["seen", "not an argument"]),
        ("replace(Cfg(), colour=4).block", ["colour", "names no field"]),
        ("replace(Plain(), block=4).block", ["no dataclass"]),
        ("Spec()._replace(1).pages", ["positional"]),
    ],
)
def test_a_copy_the_model_cannot_make_is_unknown(tmp_path, expression, words):
    """A field the constructor is not given (`init=False`, `ClassVar`), a change naming no
    field (Python raises), an object of no dataclass: unknown, never a guess."""
    assert_unknown(evaluate(tmp_path, expression, DATACLASSES), *words)


OBJECTS = """
    class Registry:
        def __init__(self):
            self.__dict__.setdefault("_bufs", {})["k"] = 3
            vars_seen = self.__dict__["_bufs"]["k"]
            self.seen = vars_seen

        def __getattr__(self, name):
            bufs = self.__dict__.get("_bufs", {})
            if name in bufs:
                return bufs[name]
            raise AttributeError(name)


    class Loud:
        def __getattr__(self, name):
            raise RuntimeError(name)


    class Vague:
        def __getattr__(self, name):
            err = self.__class__
            raise err
"""


@pytest.mark.parametrize(
    "expression",
    [
        "Registry().seen",
        "Registry().k",
        "getattr(Registry(), 'missing', 7)",
        "hasattr(Registry(), 'k')",
        "Registry().__dict__['_bufs']['k']",
    ],
)
def test_attributes_kept_in_dict_and_answered_by_getattr(tmp_path, expression):
    import textwrap

    scope: dict = {}
    exec(textwrap.dedent(OBJECTS), scope)
    assert evaluate(tmp_path, expression, OBJECTS) == eval(expression, scope)


def test_a_getattr_hook_raising_otherwise_is_not_taken_as_absent(tmp_path):
    """`raise RuntimeError` in `__getattr__` is no "no such attribute": the point is refused
    as the code would refuse it, not read as absent (`getattr(x, "a", 7)` would raise)."""
    from auditor.interpret.control import Infeasible

    with pytest.raises(Infeasible, match="RuntimeError"):
        evaluate(tmp_path, "getattr(Loud(), 'a', 7)", OBJECTS)


CINDER = {
    "cs/__init__.py": "",
    "cs/configs.py": """
from dataclasses import dataclass

import torch


@dataclass
class Shape:
    layers: int = 4
    kv_heads: int = 8
    head_size: int = 128


@dataclass
class BlockCfg:
    block_size: int = 16
    gpu_blocks: int = 64
    cpu_blocks: int = 128
    cache_dtype: str = "auto"


@dataclass
class Serve:
    kv_cache_dtype: str = "fp8_e5m2"
    device: str = "cuda"
    swap_device: str = "cpu"


def kv_dtype(name: str) -> torch.dtype:
    return torch.bfloat16 if name == "auto" else getattr(torch, "float8_e5m2")
""",
    "cs/gpu.py": """
import torch

from .configs import BlockCfg, Shape, kv_dtype


class BlockCache:
    def __init__(self, cfg: BlockCfg, model: Shape, device: str):
        self.block_size = cfg.block_size
        self.kv_blocks = torch.zeros(
            (2, model.layers, cfg.gpu_blocks, cfg.block_size, model.kv_heads, model.head_size),
            dtype=kv_dtype(cfg.cache_dtype),
            device=device,
        )
""",
    "cs/host.py": """
import torch

from .configs import BlockCfg, Shape, kv_dtype


class HostBlocks:
    def __init__(self, cfg: BlockCfg, model: Shape, device: str):
        row = 2 * model.kv_heads * model.head_size * kv_dtype(cfg.cache_dtype).itemsize
        self.blocks = torch.zeros(
            (model.layers, cfg.cpu_blocks, cfg.block_size, row), dtype=torch.uint8, device=device
        )
""",
    "cs/engine.py": """
from dataclasses import replace

from .configs import BlockCfg, Serve, Shape
from .gpu import BlockCache
from .host import HostBlocks


def create(args: Serve = None, model: Shape = None, cache_cfg: BlockCfg = None):
    args = args or Serve()
    model = model or Shape()
    cache_cfg = cache_cfg or BlockCfg()
    gpu_cfg = replace(cache_cfg, cache_dtype=args.kv_cache_dtype)
    gpu = BlockCache(gpu_cfg, model, device=args.device)
    cpu = HostBlocks(HOST_CFG, model, device=args.swap_device)
    return gpu, cpu
""",
}


@pytest.mark.parametrize("bug", [True, False])
def test_a_config_replaced_for_one_side_only(tmp_path, capsys, monkeypatch, bug):
    """probe43/r05's idiom: the device gets `replace(cache_cfg, cache_dtype=...)`, the host
    the original (the bug) or the same replaced config (fixed). It used to be unresolved
    ("call to dataclasses.replace() outside the audited tree"); now compared, and the
    figures are the real tensors' bytes."""
    files = dict(CINDER)
    files["cs/engine.py"] = files["cs/engine.py"].replace(
        "HOST_CFG", "cache_cfg" if bug else "gpu_cfg"
    )
    write_tree(tmp_path, files)
    report = audit_json(tmp_path, capsys)
    assert report["summary"]["pairs_compared"] == 1
    assert one_pair_verdict(report) == ({("LA001", "blocks")} if bug else set())
    gpu, cpu = built_from_its_config(
        tmp_path, monkeypatch, "cs", "engine", "create", "Serve", device="meta", swap_device="meta"
    )
    real = (cpu.blocks.nbytes // (4 * 128 * 16), gpu.kv_blocks.nbytes // (4 * 64 * 16))
    assert (real[0] != real[1]) is bug
    if bug:
        assert finding_figures(report)["blocks"] == real


def test_a_getattr_hook_raising_what_is_not_decided_is_unknown(tmp_path):
    """`raise err` of a name the interpreter cannot type: neither absent nor a refusal."""
    assert_unknown(evaluate(tmp_path, "getattr(Vague(), 'a', 7)", OBJECTS), "not decided")
