"""Stage 4: what the abstract interpreter follows in audited code, one feature per test."""

from __future__ import annotations

import pytest
from helpers import (
    assert_unknown,
    build,
    build_index,
    evaluate,
    module_value,
    nbytes,
    our_dtype,
)

from auditor.dtypes import torch_module
from auditor.interpret.control import Infeasible
from auditor.interpret.values import Instance, Tensor, Unknown, is_unknown

torch = torch_module()  # imported quietly, as the auditor does

# ---- parameters, locals, attributes --------------------------------------------------------


def test_parameters_come_from_the_config_point_or_their_defaults(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                class Pool:
                    def __init__(self, size, head_dim=64, heads=2):
                        self.size = size
                        self.head_dim = head_dim
                        self.heads = heads
            """
        },
    )
    built = build(index, "Pool", {"size": 10, "heads": 8})
    assert (built["size"], built["head_dim"], built["heads"]) == (10, 64, 8)
    assert built.point.reads == {"size", "heads"}


def test_binding_a_parameter_does_not_count_as_reading_it(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                class Pool:
                    def __init__(self, size, page_size):
                        self.size = size
            """
        },
    )
    built = build(index, "Pool", {"size": 1, "page_size": 64})
    assert built.point.reads == {"size"}


def test_locals_and_self_attributes_flow_into_later_statements(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                class Pool:
                    def __init__(self, size):
                        rows = size * 2
                        self.rows = rows + 1
                        cols = self.rows * 3
                        self.total = cols
                        rows = 0
                        self.after = rows
            """
        },
    )
    built = build(index, "Pool", {"size": 5})
    assert built["rows"] == 11
    assert built["total"] == 33
    assert built["after"] == 0


def test_tuple_unpacking_and_augmented_assignment(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                class Pool:
                    def __init__(self, size):
                        a, (b, c) = size, (2, 3)
                        a += b
                        a *= c
                        self.value = a
            """
        },
    )
    assert build(index, "Pool", {"size": 4})["value"] == 18


# ---- branches ------------------------------------------------------------------------------

BRANCHES = """
    class Pool:
        def __init__(self, mode, flag):
            if mode == "a":
                self.kind = 1
            elif mode == "b":
                self.kind = 2
            else:
                self.kind = 3
            self.pick = "yes" if flag else "no"
"""


@pytest.mark.parametrize(
    "mode, flag, kind, pick",
    [("a", True, 1, "yes"), ("b", False, 2, "no"), ("c", 0, 3, "no"), ("c", 5, 3, "yes")],
)
def test_if_elif_else_and_conditional_expressions(tmp_path, mode, flag, kind, pick):
    index = build_index(tmp_path, {"pool.py": BRANCHES})
    built = build(index, "Pool", {"mode": mode, "flag": flag})
    assert (built["kind"], built["pick"]) == (kind, pick)


def test_a_branch_not_taken_is_not_run(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                class Pool:
                    def __init__(self, size):
                        if size > 100:
                            assert False
                            self.big = True
                        self.size = size
            """
        },
    )
    built = build(index, "Pool", {"size": 3})
    assert built["size"] == 3
    assert "big" not in built.instance.attrs


def test_an_undecidable_branch_makes_what_it_assigns_unknown(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                from outside import probe

                class Pool:
                    def __init__(self, size):
                        self.rows = 4
                        if probe():
                            self.rows = 8
                            width = 2
                        else:
                            width = 3
                        self.width = width
                        self.size = size
            """
        },
    )
    built = build(index, "Pool", {"size": 3})
    rows = assert_unknown(built["rows"], "could not be decided")
    assert rows.location is not None and rows.location.path == "pool.py"
    assert rows.location.line == 6
    assert_unknown(built["width"])
    assert built["size"] == 3


def test_boolean_operators_short_circuit_on_known_values(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                class Pool:
                    def __init__(self, start_layer=None, size=0):
                        self.start = start_layer or 0
                        self.both = size and size * 2
                        self.either = size > 0 and not start_layer
            """
        },
    )
    built = build(index, "Pool", {"size": 3})
    assert (built["start"], built["both"], built["either"]) == (0, 6, True)


# ---- comparisons on torch dtypes -----------------------------------------------------------

DTYPE_CHECKS = """
    import torch

    class Pool:
        def __init__(self, dtype: torch.dtype):
            self.eq = dtype == torch.bfloat16
            self.ne = dtype != torch.bfloat16
            self.is_ = dtype is torch.bfloat16
            self.is_not = dtype is not torch.bfloat16
            self.fp8 = dtype in (torch.float8_e5m2, torch.float8_e4m3fn)
            self.not_fp8 = dtype not in [torch.float8_e5m2, torch.float8_e4m3fn]
            if dtype in (torch.float8_e5m2, torch.float8_e4m3fn):
                self.store_dtype = torch.uint8
            else:
                self.store_dtype = dtype
"""


@pytest.mark.parametrize(
    "dtype, bf16, fp8, store",
    [
        (torch.bfloat16, True, False, torch.bfloat16),
        (torch.float16, False, False, torch.float16),
        (torch.float8_e4m3fn, False, True, torch.uint8),
        (torch.float8_e5m2, False, True, torch.uint8),
    ],
)
def test_equality_membership_and_identity_on_torch_dtypes(tmp_path, dtype, bf16, fp8, store):
    index = build_index(tmp_path, {"pool.py": DTYPE_CHECKS})
    built = build(index, "Pool", {"dtype": dtype})
    assert built["eq"] is bf16 and built["ne"] is (not bf16)
    assert built["is_"] is bf16 and built["is_not"] is (not bf16)
    assert built["fp8"] is fp8 and built["not_fp8"] is (not fp8)
    assert built["store_dtype"] is our_dtype(store)


def test_dtype_facts_come_from_torch(tmp_path):
    prelude = "import torch\n"
    assert evaluate(tmp_path / "a", "torch.bfloat16.itemsize", prelude) == 2
    assert evaluate(tmp_path / "b", "torch.float8_e4m3fn.itemsize", prelude) == 1
    assert evaluate(tmp_path / "c", "torch.float32.itemsize", prelude) == 4
    assert evaluate(tmp_path / "d", "torch.finfo(torch.bfloat16).bits", prelude) == 16
    assert evaluate(tmp_path / "e", "torch.finfo(torch.float8_e5m2).bits", prelude) == 8
    assert evaluate(tmp_path / "f", "torch.iinfo(torch.int32).bits", prelude) == 32
    assert evaluate(tmp_path / "g", "torch.float16.is_floating_point", prelude) is True
    assert evaluate(tmp_path / "h", "torch.uint8.is_floating_point", prelude) is False
    assert evaluate(tmp_path / "i", "torch.finfo(torch.float16).bits // 8", prelude) == 2


def test_dtype_aliases_resolve_to_the_same_torch_dtype(tmp_path):
    index = build_index(
        tmp_path,
        {
            "m.py": """
                import torch as t
                from torch import bfloat16 as bf

                A = t.half
                B = bf
                C = t.float
            """
        },
    )
    assert module_value(index, "m", "A") is our_dtype(torch.float16)
    assert module_value(index, "m", "B") is our_dtype(torch.bfloat16)
    assert module_value(index, "m", "C") is our_dtype(torch.float32)


# ---- arithmetic ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "expression, expected",
    [
        ("7 // 2", 3),
        ("-7 // 2", -4),
        ("7 % 3", 1),
        ("2 ** 10", 1024),
        ("(128 + 64) * 2 - 1", 383),
        ("7 / 2", 3.5),
        ("min(3, 1, 2)", 1),
        ("max([3, 9, 2])", 9),
        ("int(7.9)", 7),
        ("int(2.0 * 1e9 // 3)", 666666666),
        ("math.ceil(7 / 2)", 4),
        ("math.ceil(8 / 2)", 4),
        ("math.prod((2, 3, 4))", 24),
        ("abs(-5) + round(2.6)", 8),
        ("divmod(17, 5)", (3, 2)),
        ("sum([1, 2, 3])", 6),
        ("len((1, 2, 3))", 3),
        ("1 << 4 | 1", 17),
    ],
)
def test_arithmetic(tmp_path, expression, expected):
    assert evaluate(tmp_path, expression, "import math\n") == expected


def test_tuples_and_lists_build_shapes(tmp_path):
    assert evaluate(tmp_path / "a", "(2, 3) + (4,)") == (2, 3, 4)
    assert evaluate(tmp_path / "b", "(1, *X, 5)", "X = [2, 3]\n") == (1, 2, 3, 5)
    assert evaluate(tmp_path / "c", "tuple([i * 2 for i in range(3)])") == (0, 2, 4)
    assert evaluate(tmp_path / "d", "X[1]", "X = (4, 5, 6)\n") == 5
    assert evaluate(tmp_path / "e", "X[-2:]", "X = (4, 5, 6)\n") == (5, 6)


# ---- calls ---------------------------------------------------------------------------------


def test_calls_to_functions_and_methods_in_the_same_module(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                def row_bytes(dim, itemsize=2):
                    return dim * itemsize

                class Pool:
                    def __init__(self, dim):
                        self.row = row_bytes(dim)
                        self.half = self.halve(self.row)
                        self.scaled = self.scale(dim, factor=3)

                    def halve(self, value):
                        return value // 2

                    @staticmethod
                    def scale(value, factor):
                        return value * factor
            """
        },
    )
    built = build(index, "Pool", {"dim": 64})
    assert (built["row"], built["half"], built["scaled"]) == (128, 64, 192)


def test_calls_across_modules_with_absolute_and_relative_imports(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/util.py": """
                SCALE = 4

                def row_bytes(dim):
                    return dim * SCALE
            """,
            "pkg/sub/__init__.py": "from ..util import SCALE as S\n",
            "pkg/sub/pool.py": """
                import pkg.util
                from pkg.util import row_bytes
                from .. import util
                from ..util import SCALE
                from . import S as PACKAGE_SCALE

                class Pool:
                    def __init__(self, dim):
                        self.absolute = row_bytes(dim)
                        self.dotted = pkg.util.row_bytes(dim)
                        self.module = util.row_bytes(dim) + SCALE
                        self.package = PACKAGE_SCALE
            """,
        },
    )
    built = build(index, "Pool", {"dim": 10})
    assert built["absolute"] == 40
    assert built["dotted"] == 40
    assert built["module"] == 44
    assert built["package"] == 4


def test_function_local_imports(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/util.py": "def double(x):\n    return 2 * x\n",
            "pkg/pool.py": """
                class Pool:
                    def __init__(self, dim):
                        from .util import double
                        import math

                        self.value = double(math.ceil(dim / 3))
            """,
        },
    )
    assert build(index, "Pool", {"dim": 10})["value"] == 8


def test_type_checking_imports_are_followed(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/device.py": """
                class DevicePool:
                    block = 128
            """,
            "pkg/host.py": """
                from typing import TYPE_CHECKING
                import typing

                if TYPE_CHECKING:
                    from pkg.device import DevicePool

                if typing.TYPE_CHECKING:
                    from .device import DevicePool as Other
                else:
                    Other = None

                class Host:
                    def __init__(self):
                        if TYPE_CHECKING:
                            from pkg.device import DevicePool as Local
                        self.block = DevicePool.block
                        self.other = Other.block * 2
                        self.local = Local.block + 1
            """,
        },
    )
    built = build(index, "Host")
    assert (built["block"], built["other"], built["local"]) == (128, 256, 129)


def test_keyword_star_args_and_kwargs_are_bound(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                def total(*dims, scale=1, **extra):
                    result = scale
                    for d in dims:
                        result *= d
                    return result + extra.get("pad", 0)

                class Pool:
                    def __init__(self):
                        args = (2, 3)
                        options = {"scale": 5, "pad": 1}
                        self.value = total(*args, **options)
            """
        },
    )
    assert build(index, "Pool")["value"] == 31


# ---- inheritance ---------------------------------------------------------------------------

HIERARCHY = """
    class Base:
        def __init__(self, size):
            self.size = size
            self.level = "base"
            self.rows = self.row_count()

        def row_count(self):
            return 1

    class Middle(Base):
        def __init__(self, size):
            super().__init__(size)
            self.level = "middle"
            self.middle_only = True

        def row_count(self):
            return 2

    class Leaf(Middle):
        def __init__(self, size):
            super().__init__(size * 10)
            self.leaf = True

    class Skipper(Middle):
        def __init__(self, size):
            super(Middle, self).__init__(size)

        def row_count(self):
            return 3
"""


def test_super_init_runs_the_base_constructor_chain(tmp_path):
    index = build_index(tmp_path, {"pool.py": HIERARCHY})
    built = build(index, "Leaf", {"size": 2})
    assert built["size"] == 20
    assert built["level"] == "middle"
    assert built["middle_only"] is True and built["leaf"] is True


def test_super_with_arguments_skips_a_level(tmp_path):
    index = build_index(tmp_path, {"pool.py": HIERARCHY})
    built = build(index, "Skipper", {"size": 2})
    assert built["size"] == 2
    assert built["level"] == "base"
    assert "middle_only" not in built.instance.attrs


def test_a_base_constructor_calls_the_method_the_subclass_overrides(tmp_path):
    index = build_index(tmp_path, {"pool.py": HIERARCHY})
    assert build(index, "Base", {"size": 1})["rows"] == 1
    assert build(index, "Leaf", {"size": 1})["rows"] == 2
    assert build(index, "Skipper", {"size": 1})["rows"] == 3


def test_constructor_inherited_without_an_init_of_its_own(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                class Base:
                    width = 1

                    def __init__(self, size):
                        self.total = size * self.width

                class Wide(Base):
                    width = 4
            """
        },
    )
    assert build(index, "Wide", {"size": 3})["total"] == 12


def test_base_class_in_another_module(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/base.py": """
                class Base:
                    def __init__(self, size):
                        self.size = size
                        self.row = self.row_bytes()
            """,
            "pkg/pool.py": """
                from .base import Base

                class Pool(Base):
                    def __init__(self, size, dim):
                        self.dim = dim
                        super().__init__(size)

                    def row_bytes(self):
                        return self.dim * 2
            """,
        },
    )
    built = build(index, "Pool", {"size": 4, "dim": 64})
    assert (built["size"], built["row"]) == (4, 128)


def test_property_is_evaluated_on_read(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                class Pool:
                    def __init__(self, dim):
                        self.dim = dim
                        self.row = self.row_bytes * 2

                    @property
                    def row_bytes(self):
                        return self.dim + 1
            """
        },
    )
    built = build(index, "Pool", {"dim": 3})
    assert built["row"] == 8
    assert built.attr("row_bytes") == 4


def test_property_with_a_setter_is_still_read_through_the_getter(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                class Pool:
                    def __init__(self, dim):
                        self._dim = dim
                        self.row = self.dim * 2

                    @property
                    def dim(self):
                        return self._dim + 1

                    @dim.setter
                    def dim(self, value):
                        self._dim = value
            """
        },
    )
    assert build(index, "Pool", {"dim": 3})["row"] == 8


# ---- class attributes ----------------------------------------------------------------------

CLASS_ATTRIBUTES = """
    import torch

    BLOCK = 64

    class Device:
        quant_block_size = 128
        scale_bytes = quant_block_size // 32
        buffer_dtype = torch.uint8

        def __init__(self, size):
            self.size = size
            self.via_self = self.quant_block_size + self.scale_bytes

    class Fp16Device(Device):
        buffer_dtype = torch.float16

    class Host:
        def __init__(self, device_pool: Device):
            self.via_object = device_pool.quant_block_size
            self.via_object_dtype = device_pool.buffer_dtype
            self.via_class = Device.quant_block_size + BLOCK
            self.via_subclass = Fp16Device.buffer_dtype
"""


def test_class_attributes_through_self_a_named_class_and_another_object(tmp_path):
    index = build_index(tmp_path, {"pool.py": CLASS_ATTRIBUTES})
    device = build(index, "Fp16Device", {"size": 1})
    assert device["via_self"] == 132
    host = build(index, "Host", kwargs={"device_pool": device.instance})
    assert host["via_object"] == 128
    assert host["via_object_dtype"] is our_dtype(torch.float16)
    assert host["via_class"] == 192
    assert host["via_subclass"] is our_dtype(torch.float16)


def test_instance_attribute_shadows_the_class_attribute(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                import torch

                class Pool:
                    buffer_dtype = torch.uint8

                    def __init__(self, dtype):
                        if dtype == torch.bfloat16:
                            self.buffer_dtype = torch.bfloat16
                        self.bytes = self.buffer_dtype.itemsize
            """
        },
    )
    assert build(index, "Pool", {"dtype": torch.bfloat16})["bytes"] == 2
    assert build(index, "Pool", {"dtype": torch.float16})["bytes"] == 1


def test_getattr_with_a_default(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                class Device:
                    index_head_dim = 128

                class Plain:
                    pass

                class Host:
                    def __init__(self, device_pool):
                        self.dim = getattr(device_pool, "index_head_dim", None)
                        self.has = hasattr(device_pool, "index_head_dim")
                        self.fallback = getattr(self, "missing", 7)
            """
        },
    )
    with_dim = build(index, "Host", kwargs={"device_pool": build(index, "Device").instance})
    assert (with_dim["dim"], with_dim["has"], with_dim["fallback"]) == (128, True, 7)
    without = build(index, "Host", kwargs={"device_pool": build(index, "Plain").instance})
    assert (without["dim"], without["has"]) == (None, False)


def test_getattr_of_none_and_numbers_is_decided(tmp_path):
    """None and numbers have a fixed set of attributes: `getattr(quant_config, "x", None)` with
    `quant_config=None` is the default, not unknown (vLLM 0.28's attention layer)."""
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                class Host:
                    def __init__(self, quant_config=None, width=4):
                        self.scheme = getattr(quant_config, "kv_cache_scheme", None)
                        self.has = hasattr(quant_config, "kv_cache_scheme")
                        self.real = getattr(width, "real", 0)
                        self.named = getattr(width, "missing", "default")
            """
        },
    )
    built = build(index, "Host")
    assert (built["scheme"], built["has"], built["named"]) == (None, False, "default")
    assert built["real"] == 4 or is_unknown(built["real"])  # an attribute that exists: not guessed


def test_isinstance_on_audited_classes(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                class A:
                    pass

                class B(A):
                    pass

                class Host:
                    def __init__(self, pool):
                        self.is_a = isinstance(pool, A)
                        self.is_b = isinstance(pool, (B, int))
            """
        },
    )
    built = build(index, "Host", kwargs={"pool": build(index, "A").instance})
    assert (built["is_a"], built["is_b"]) == (True, False)
    built = build(index, "Host", kwargs={"pool": build(index, "B").instance})
    assert (built["is_a"], built["is_b"]) == (True, True)
    built = build(index, "Host", kwargs={"pool": 3})
    assert (built["is_a"], built["is_b"]) == (False, True)


# ---- assert -> Infeasible ------------------------------------------------------------------


def test_assert_on_a_decidable_fact_makes_the_point_infeasible(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                class Pool:
                    quant_block_size = 128

                    def __init__(self, index_head_dim):
                        assert index_head_dim % self.quant_block_size == 0
                        self.dim = index_head_dim
            """
        },
    )
    assert build(index, "Pool", {"index_head_dim": 256})["dim"] == 256
    with pytest.raises(Infeasible) as caught:
        build(index, "Pool", {"index_head_dim": 100})
    assert "index_head_dim % self.quant_block_size == 0" in caught.value.reason
    assert caught.value.location is not None and caught.value.location.line == 5


def test_raise_on_a_decided_branch_is_infeasible(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                class Pool:
                    def __init__(self, layout):
                        if layout == "layer_first":
                            self.ok = True
                        else:
                            raise ValueError(f"Unsupported layout: {layout}")
            """
        },
    )
    assert build(index, "Pool", {"layout": "layer_first"})["ok"] is True
    with pytest.raises(Infeasible, match="ValueError"):
        build(index, "Pool", {"layout": "page_first"})


def test_assert_on_an_undecidable_fact_is_not_infeasible(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                from outside import probe

                class Pool:
                    def __init__(self, size):
                        assert probe() == size
                        self.size = size
            """
        },
    )
    assert build(index, "Pool", {"size": 3})["size"] == 3


# ---- allocations ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, shape, dtype, expected",
    [
        ("torch.zeros((4, 8), dtype=torch.bfloat16)", (4, 8), torch.bfloat16, 64),
        ("torch.zeros(4, 8, dtype=torch.float32)", (4, 8), torch.float32, 128),
        ("torch.empty([4, 8], dtype=torch.uint8, device='cpu')", (4, 8), torch.uint8, 32),
        ("torch.ones(size=(3,), dtype=torch.float16)", (3,), torch.float16, 6),
        ("torch.full((4, 2), -1, dtype=torch.int64)", (4, 2), torch.int64, 64),
        ("torch.zeros(torch.Size([5, 2]), dtype=torch.int32)", (5, 2), torch.int32, 40),
        ("torch.zeros(5)", (5,), torch.float32, 20),
    ],
)
def test_torch_allocators(tmp_path, call, shape, dtype, expected):
    tensor = evaluate(tmp_path, call, "import torch\n")
    assert isinstance(tensor, Tensor)
    assert (tensor.shape, tensor.dtype, tensor.nbytes) == (shape, dtype, expected)


def test_empty_strided_counts_the_elements_its_strides_reach(tmp_path):
    tensor = evaluate(
        tmp_path, "torch.empty_strided((4, 3), (6, 1), dtype=torch.float16)", "import torch\n"
    )
    assert isinstance(tensor, Tensor)
    assert tensor.nbytes == (1 + 3 * 6 + 2 * 1) * 2


def test_per_layer_list_comprehension_of_allocations(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                import torch

                class Pool:
                    def __init__(self, size, page_size, layer_num, head_dim):
                        self.k_buffer = [
                            torch.zeros((size + page_size, head_dim), dtype=torch.bfloat16)
                            for _ in range(layer_num)
                        ]
            """
        },
    )
    built = build(index, "Pool", {"size": 10, "page_size": 6, "layer_num": 3, "head_dim": 8})
    buffers = built["k_buffer"]
    assert len(buffers) == 3
    assert {t.shape for t in buffers} == {(16, 8)}
    assert len({t.ident for t in buffers}) == 3
    assert nbytes(buffers) == 3 * 16 * 8 * 2


def test_allocation_through_a_table_of_allocator_functions(tmp_path):
    index = build_index(
        tmp_path,
        {
            "host.py": """
                import torch

                def alloc_with_pin_memory(dims, dtype, device, pin_memory):
                    return torch.empty(dims, dtype=dtype, device=device, pin_memory=pin_memory)

                ALLOC_MEMORY_FUNCS = {"cpu": alloc_with_pin_memory, "npu": torch.zeros}

                class Host:
                    def __init__(self, device, layer_num, size):
                        dims = (layer_num, size, 64)
                        alloc = ALLOC_MEMORY_FUNCS[device]
                        self.kv_buffer = alloc(
                            dims, dtype=torch.float16, device=device, pin_memory=True
                        )
                        self.direct = ALLOC_MEMORY_FUNCS["npu"]((size, 4), dtype=torch.uint8)
            """
        },
    )
    for device in ("cpu", "npu"):
        built = build(index, "Host", {"device": device, "layer_num": 2, "size": 10})
        assert isinstance(built["kv_buffer"], Tensor)
        assert built["kv_buffer"].nbytes == 2 * 10 * 64 * 2
        assert built["direct"].nbytes == 40


def test_view_as_another_dtype_keeps_the_bytes(tmp_path):
    prelude = "import torch\nT = torch.zeros((4, 8), dtype=torch.uint8)\n"
    viewed = evaluate(tmp_path / "a", "T.view(torch.float16)", prelude)
    assert isinstance(viewed, Tensor)
    assert (viewed.shape, viewed.dtype, viewed.nbytes) == ((4, 4), torch.float16, 32)
    reshaped = evaluate(tmp_path / "b", "T.view(2, -1)", prelude)
    assert (reshaped.shape, reshaped.nbytes) == ((2, 16), 32)
    converted = evaluate(tmp_path / "c", "T.to(torch.float32)", prelude)
    assert converted.nbytes == 128


def test_tensor_facts_are_readable(tmp_path):
    prelude = "import torch\nT = torch.zeros((4, 8), dtype=torch.bfloat16)\n"
    assert evaluate(tmp_path / "a", "T.shape[1] * T.element_size()", prelude) == 16
    assert evaluate(tmp_path / "b", "T.dtype.itemsize + T.numel()", prelude) == 34
    assert evaluate(tmp_path / "c", "T.nbytes", prelude) == 64


def test_allocation_with_an_unresolved_dtype_is_unknown(tmp_path):
    tensor = evaluate(tmp_path, "torch.zeros((4,), dtype=cfg.dtype)", "import torch, cfg\n")
    assert_unknown(tensor, "dtype")


# ---- Unknown -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "expression",
    [
        "X + 1",
        "X * 0",
        "0 * X",
        "int(X)",
        "max(X, 3)",
        "min([1, X])",
        "math.ceil(X)",
        "-X",
        "X // 2 % 3",
        "len(X)",
        "X == 1",
        "not X",
        "(X, 1)[0]",
        "1 if X else 2",
        "f'{X}'",
        "X.itemsize",
        "torch.zeros((X, 2), dtype=torch.float16)",
        "[torch.zeros(2) for _ in range(X)]",
    ],
)
def test_unknowns_never_become_numbers(tmp_path, expression):
    value = evaluate(tmp_path, expression, "import math, os, torch\nX = os.cpu_count()\n")
    unknown = assert_unknown(value)
    assert "os.cpu_count" in unknown.reason
    assert unknown.location is not None and unknown.location.path == "m.py"


def test_unknown_names_carry_the_name_and_location(tmp_path):
    value = evaluate(tmp_path, "undefined_name * 2")
    unknown = assert_unknown(value, "undefined_name")
    assert (unknown.location.path, unknown.location.line, unknown.location.column) == (
        "m.py",
        1,
        10,
    )


def test_unknown_has_no_truth_value():
    with pytest.raises(TypeError):
        bool(Unknown("x"))


def test_unknown_receiver_call_marks_instance_incomplete(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                from external import setup

                class Pool:
                    def __init__(self):
                        self.helper = setup()
                        self.maybe()

                class Other(Pool):
                    pass
            """
        },
    )
    built = build(index, "Pool")
    assert_unknown(built["helper"], "external.setup")
    assert built.instance.incomplete is not None
    assert_unknown(built.attr("anything"), "may be set on a path not followed")


def test_nested_instances_built_by_constructors(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                class Config:
                    def __init__(self, dim):
                        self.dim = dim

                class Pool:
                    def __init__(self, dim):
                        self.config = Config(dim * 2)
                        self.dim = self.config.dim
            """
        },
    )
    built = build(index, "Pool", {"dim": 3})
    assert isinstance(built["config"], Instance)
    assert built["dim"] == 6


def test_loops_accumulate(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                class Pool:
                    def __init__(self, layer_num):
                        self.buffers = []
                        total = 0
                        for i in range(layer_num):
                            if i == 1:
                                continue
                            total += i
                            self.buffers.append(i)
                        while total < 100:
                            total *= 2
                            if total > 50:
                                break
                        self.total = total
            """
        },
    )
    built = build(index, "Pool", {"layer_num": 4})
    assert built["buffers"] == [0, 2, 3]
    assert built["total"] == 80
