"""A dataclass's generated `__init__`, as Python runs it (session 39).

`field(default=...)`, `field(default_factory=...)`, `kw_only=True` (skipped by positional
arguments), `init=False` (set by the default or by `__post_init__` only) and `ClassVar` (no field
at all) are the interpreter's own, for every engine: vLLM's spec classes used them first
(`field(default=False, kw_only=True)`), and configs written by other teams use them as often.
Each value is compared with Python's, run on the same source.
"""

from __future__ import annotations

import textwrap

import pytest
from helpers import audit_json, evaluate, finding_figures, write_tree

FIELDS = """
    import dataclasses
    from dataclasses import dataclass, field
    from typing import ClassVar


    @dataclass
    class Cache:
        heads: int
        head_dim: int = field(default=128)
        dtype: str = dataclasses.field(default="bfloat16", compare=False)
        layers: list = field(default_factory=list)
        sliding: bool = field(default=False, kw_only=True)
        page: int = field(default=16, init=False)
        seen: ClassVar[int] = 7
        tp: int = 1

        def __post_init__(self):
            if self.sliding:
                self.page = 64


    HEAD_DIM = 64


    @dataclass
    class Scoped:
        HEAD_DIM: ClassVar[int] = 128
        head_dim: int = field(default=HEAD_DIM)
        width: int = HEAD_DIM * 2


    @dataclass
    class Rows:
        width: int = 576
        rows: int = field(init=False)

        def __post_init__(self):
            self.rows = self.width * 2
"""


@pytest.mark.parametrize(
    "expression",
    [
        "Cache(8).head_dim",
        "Cache(8, 64).head_dim",
        "Cache(8, 64, 'float16').dtype",
        "Cache(8).dtype",
        "len(Cache(8).layers)",
        "Cache(8, 64, 'fp8', [1], 2).tp",  # the kw_only and init=False fields take no position
        "Cache(8).page",
        "Cache(8, sliding=True).page",
        "Cache(8).seen",
        "Cache(8, tp=4).tp",
        "Scoped().head_dim",  # a class attribute, not the module's name
        "Scoped().width",
        "Rows().rows",
        "Rows(width=64).rows",
    ],
)
def test_a_dataclass_is_built_as_python_builds_it(tmp_path, expression):
    """The interpreter's value is Python's, for the same source run for real."""
    scope: dict = {}
    # (the test's own source, not audited code; compiled without this module's `from
    # __future__ import annotations`, which would hide `ClassVar` from dataclasses)
    exec(compile(textwrap.dedent(FIELDS), "m", "exec", dont_inherit=True), scope)
    assert evaluate(tmp_path, expression, FIELDS) == eval(expression, scope)


def test_a_factory_field_is_a_new_object_each_time(tmp_path):
    """`default_factory=list` gives every object its own list, as Python does."""
    expression = "(lambda a, b: (a.layers.append(1), len(b.layers))[1])(Cache(1), Cache(2))"
    assert evaluate(tmp_path, expression, FIELDS) == 0


MORE_FIELDS = """
    import dataclasses
    import typing
    from dataclasses import KW_ONLY, InitVar, dataclass, field


    class KVClassVariant:
        pass


    @dataclass(kw_only=True)
    class Keyed:
        heads: int = 8
        head_dim: int = 128


    @dataclass
    class Marked:
        heads: int
        _: KW_ONLY
        head_dim: int = 128
        tp: int = 1


    @dataclass
    class Base:
        heads: int = 8
        head_dim: int = 128


    @dataclass
    class Narrow(Base):
        heads: int = 4  # declared again: keeps its first place
        rope: int = 64


    @dataclass
    class Scaled:
        width: int
        scale: InitVar[int] = 2
        total: int = field(init=False, default=0)

        def __post_init__(self, scale):
            self.total = self.width * scale


    @dataclass
    class Variant:
        kind: KVClassVariant = None  # a name holding "ClassVar" is a field
        rows: typing.ClassVar[int] = 3
        width: int = 7


    @dataclass
    class Mixed(Keyed):
        rope: int = dataclasses.field(default=64, kw_only=False)


    @dataclass
    class Pinned(Base):
        heads: typing.ClassVar[int] = 2  # a class attribute now: no longer a parameter
"""


@pytest.mark.parametrize(
    "expression",
    [
        "Keyed(heads=4).heads",
        "Keyed().head_dim",
        "Marked(8).head_dim",
        "Marked(8, head_dim=64).head_dim",
        "Marked(8, tp=2).tp",
        "Narrow(2).heads",  # the first place is still `heads`
        "Narrow(2, 96).head_dim",
        "Narrow(2, 96, 32).rope",
        "Scaled(10).total",
        "Scaled(10, 3).total",
        "Scaled(10, scale=5).total",
        "Variant(None, 9).width",  # `kind` takes the first place, not a class attribute
        "Variant().rows",
        "Mixed(32).rope",  # the class's kw_only=True is its own, a subclass's field says
        "Mixed(32, heads=2).heads",
        "Pinned(64).head_dim",
        "Pinned(64).heads",
    ],
)
def test_keyword_only_classes_markers_redefinitions_and_init_vars(tmp_path, expression):
    """`@dataclass(kw_only=True)`, the `_: KW_ONLY` marker, a field declared again in a
    subclass, `InitVar` (given to `__post_init__`, never set) and a type whose name holds
    "ClassVar": the interpreter's value is Python's, for the same source run for real."""
    scope: dict = {}
    exec(compile(textwrap.dedent(MORE_FIELDS), "m", "exec", dont_inherit=True), scope)
    assert evaluate(tmp_path, expression, MORE_FIELDS) == eval(expression, scope)


def test_an_init_var_is_not_kept_on_the_object(tmp_path):
    """An `InitVar` without a default is handed to `__post_init__` and not kept (one with a
    default stays a class attribute), as Python has it."""
    source = (
        MORE_FIELDS
        + """
    @dataclass
    class Given:
        width: int
        scale: InitVar[int]
        total: int = 0

        def __post_init__(self, scale):
            self.total = self.width * scale
    """
    )
    scope: dict = {}
    exec(compile(textwrap.dedent(source), "m", "exec", dont_inherit=True), scope)
    for expression in ("hasattr(Given(3, 4), 'scale')", "Given(3, 4).total"):
        assert evaluate(tmp_path, expression, source) == eval(expression, scope)


HOST_FROM_FIELDS = {
    "pools.py": """
        from dataclasses import dataclass, field

        import torch


        @dataclass
        class KVSpec:
            num_kv_heads: int = field(default=8)
            head_dim: int = field(default=128)
            dtype: torch.dtype = field(default=torch.bfloat16, kw_only=True)


        class DevicePool:
            def __init__(self, size: int, layer_num: int, heads: int = 8, device: str = "cuda"):
                spec = KVSpec(heads)  # the head size its field's default gives
                self.k_buffer = [
                    torch.empty((size, spec.num_kv_heads, spec.head_dim), dtype=spec.dtype,
                                device=device)
                    for _ in range(layer_num)
                ]


        class HostPool:
            def __init__(self, device_pool: DevicePool, host_size: int, spec: KVSpec):
                self.device_pool = device_pool
                self.k_buffer = torch.empty(
                    (len(device_pool.k_buffer), host_size, spec.num_kv_heads, spec.head_dim),
                    dtype=spec.dtype,
                    device="cpu",
                )


        def build(size: int, layers: int):
            spec = KVSpec(8)
            device = DevicePool(size, layers, spec.num_kv_heads)
            host = HostPool(device, 2 * size, KVSpec(8, 64))  # head_dim drifted
            return device, host
    """,
}


def test_a_field_default_reaches_the_pools(tmp_path, capsys):
    """A host built from a spec whose `field(default=128)` the device takes and the host
    overrides: the disagreement is reported with both figures (before, `field(...)` was an
    unknown call and both buffers were unresolved)."""
    root = write_tree(tmp_path, HOST_FROM_FIELDS)
    report = audit_json(root, capsys)
    assert [f["code"] for f in report["findings"]] == ["LA001"], report["findings"]
    assert finding_figures(report) == {"k_buffer": (8 * 64 * 2, 8 * 128 * 2)}


def test_an_init_var_not_given_is_unknown(tmp_path):
    """An `InitVar` without a default that the call does not give is unknown to
    `__post_init__` (Python raises a TypeError there), never a made-up value."""
    source = (
        MORE_FIELDS
        + """
    @dataclass
    class Needs:
        width: int
        scale: InitVar[int]
        total: int = 0

        def __post_init__(self, scale):
            self.total = self.width * scale
    """
    )
    from helpers import assert_unknown

    assert_unknown(evaluate(tmp_path, "Needs(3).total", source), "scale")
