"""Idioms of real pool code (SGLang 0.5.23): closures, tensor views, enum tables, mmap hosts."""

from __future__ import annotations

import enum
import functools
import textwrap

import pytest
from helpers import (
    assert_unknown,
    build,
    build_index,
    evaluate,
    find_class,
    module_value,
    nbytes,
)

from auditor.dtypes import torch_module
from auditor.interpret.control import Infeasible
from auditor.interpret.values import Instance, Tensor

torch = torch_module()


def test_a_nested_function_sees_the_enclosing_names(tmp_path):
    """`def _zeros(shape): return torch.zeros(shape, dtype=self.store_dtype)` inside a method."""
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                import torch

                class Pool:
                    def __init__(self, size, layer_num):
                        self.store_dtype = torch.bfloat16
                        width = 8

                        def _zeros(rows):
                            return torch.zeros((rows, width), dtype=self.store_dtype)

                        width = 16  # read when called, as Python's cells are
                        self.k_buffer = [_zeros(size) for _ in range(layer_num)]
                        scale = lambda n: n * width
                        self.scaled = scale(2)
            """
        },
    )
    built = build(index, "Pool", {"size": 10, "layer_num": 2})
    assert nbytes(built["k_buffer"]) == torch.zeros((10, 16), dtype=torch.bfloat16).nbytes * 2
    assert built["scaled"] == 32


@pytest.mark.parametrize(
    "index_text, shape",
    [
        ("[0]", (2, 8, 4)),
        ("[1, :3]", (2, 8, 4)),
        ("[0, 1:, ::2]", (2, 8, 4)),
        ("[-1, 2:100]", (2, 8, 4)),
        ("[:, :0]", (2, 8, 4)),
    ],
)
def test_basic_indexing_of_a_tensor_is_a_view_of_the_shape_torch_gives(tmp_path, index_text, shape):
    value = evaluate(
        tmp_path, f"torch.zeros({shape}, dtype=torch.float16){index_text}", "import torch"
    )
    oracle = eval(f"torch.empty({shape}, dtype=torch.float16, device='meta'){index_text}")
    assert isinstance(value, Tensor)
    assert value.shape == tuple(oracle.shape)
    assert value.nbytes == oracle.nbytes


@pytest.mark.parametrize("index_text", ["[2]", "[0, 0, 0, 0]", "[0.5]", "[None]", "[::-1]"])
def test_indexing_that_fails_or_is_not_modelled_is_unknown(tmp_path, index_text):
    value = evaluate(
        tmp_path, f"torch.zeros((2, 3), dtype=torch.float16){index_text}", "import torch"
    )
    assert_unknown(value)


def test_fused_allocation_split_into_k_and_v_views(tmp_path):
    """SGLang 0.5.23 MHATokenToKVPool: one (2, rows, heads, dim) tensor, K and V its halves."""
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                import torch

                class Pool:
                    def __init__(self, size, layer_num, head_num, head_dim):
                        rows = size + 1
                        fused = [
                            torch.zeros((2, rows, head_num, head_dim), dtype=torch.bfloat16)
                            for _ in range(layer_num)
                        ]
                        self.k_buffer = [buf[0, :rows] for buf in fused]
                        self.v_buffer = [buf[1, :rows] for buf in fused]
            """
        },
    )
    built = build(index, "Pool", {"size": 7, "layer_num": 3, "head_num": 2, "head_dim": 4})
    half = torch.empty((2, 8, 2, 4), dtype=torch.bfloat16, device="meta")[0, :8].nbytes
    assert nbytes(built["k_buffer"]) == nbytes(built["v_buffer"]) == 3 * half


def test_frombuffer_with_a_count_allocates_count_elements(tmp_path):
    """HiCache hosts allocate through mmap: `torch.frombuffer(mm, dtype=d, count=n).reshape(dims)`."""
    value = evaluate(
        tmp_path,
        "torch.frombuffer(make_mmap(), dtype=torch.bfloat16, count=math.prod(dims)).reshape(dims)",
        """
        import math
        import mmap
        import torch
        dims = (3, 5, 7)
        def make_mmap():
            return mmap.mmap(-1, 4096)
        """,
    )
    assert isinstance(value, Tensor)
    assert value.shape == (3, 5, 7)
    assert value.nbytes == torch.zeros((3, 5, 7), dtype=torch.bfloat16).nbytes
    no_count = evaluate(
        tmp_path / "b", "torch.frombuffer(b, dtype=torch.uint8)", "import torch\nb = 1"
    )
    assert_unknown(no_count, "count")


@pytest.mark.parametrize(
    "expression, expected",
    [
        ("callable(f)", True),
        ("callable(3)", False),
        ("callable(C)", True),
        ("callable(C())", False),
    ],
)
def test_callable(tmp_path, expression, expected):
    prelude = "def f():\n    return 1\nclass C:\n    pass\n"
    assert evaluate(tmp_path, expression, prelude) is expected


def test_identity_with_a_name_outside_the_tree_is_unknown(tmp_path):
    """`torch.version.hip is not None` says nothing about the machine the engine runs on."""
    assert_unknown(evaluate(tmp_path, "torch.version.hip is not None", "import torch"), "identity")


# ---- enums ---------------------------------------------------------------------------------

LAYOUT_SOURCE = """
import enum
import functools


class KVLayout(str, enum.Enum):
    V4 = "v4"
    V41 = "v41"
    FP4 = "fp4"

    @functools.cached_property
    def data_bytes(self) -> int:
        return {KVLayout.V4: 576, KVLayout.V41: 512, KVLayout.FP4: 256}[self]

    @property
    def is_fp4(self) -> bool:
        return self in (KVLayout.FP4,)

    @classmethod
    def parse(cls, value):
        if isinstance(value, KVLayout):
            return value
        return cls(str(value).lower())
"""


def _python_layout():
    """The same enum, run by Python: the oracle."""
    namespace: dict = {"enum": enum, "functools": functools}
    exec(compile(LAYOUT_SOURCE, "<oracle>", "exec"), namespace)  # test-side code only
    return namespace["KVLayout"]


@pytest.mark.parametrize("given", ["V4", "v41", "Fp4"])
def test_enum_members_lookup_tables_and_lookup_by_value(tmp_path, given):
    index = build_index(
        tmp_path,
        {
            "layout.py": LAYOUT_SOURCE,
            "pool.py": """
                import torch
                from layout import KVLayout

                class Pool:
                    def __init__(self, size, layer_num, kv_layout="v4"):
                        self.kv_layout = KVLayout.parse(kv_layout)
                        self.same = self.kv_layout is KVLayout.parse(self.kv_layout)
                        self.equal_text = self.kv_layout == kv_layout.lower()
                        self.in_texts = self.kv_layout in ("v4", "fp4")
                        self.fp4 = self.kv_layout.is_fp4
                        self.name = self.kv_layout.name
                        self.kv_buffer = [
                            torch.zeros(size, self.kv_layout.data_bytes, dtype=torch.uint8)
                            for _ in range(layer_num)
                        ]
            """,
        },
    )
    built = build(index, "Pool", {"size": 4, "layer_num": 1}, kwargs={"kv_layout": given})
    oracle = _python_layout().parse(given)
    assert isinstance(built["kv_layout"], Instance)
    assert built["same"] is True
    assert built["equal_text"] is (oracle == given.lower())
    assert built["in_texts"] is (oracle in ("v4", "fp4"))
    assert built["fp4"] is oracle.is_fp4
    assert built["name"] == oracle.name
    assert built["kv_buffer"][0].nbytes == 4 * oracle.data_bytes


def test_an_enum_value_that_is_not_a_member_is_refused(tmp_path):
    """`KVLayout('v5')` raises ValueError in Python: decided by the value, the point is
    refused (Infeasible), as a `raise` the config decides is; a member's value is the member."""
    source = textwrap.dedent(LAYOUT_SOURCE) + "\nBAD = KVLayout('v5')\n"
    index = build_index(tmp_path, {"layout.py": source})
    with pytest.raises(Infeasible, match="'v5' is not a value of KVLayout"):
        module_value(index, "layout", "BAD")
    source = textwrap.dedent(LAYOUT_SOURCE) + "\nGOOD = KVLayout('v4')\n"
    index = build_index(tmp_path / "good", {"layout.py": source})
    good = module_value(index, "layout", "GOOD")
    assert isinstance(good, Instance) and good.attrs["value"] == "v4"
    assert good.cls is find_class(index, "KVLayout")


def test_an_import_prefers_the_module_whose_folders_spell_it(tmp_path):
    """Two audited packages named `utils` (no `__init__.py` above them): `sglang.srt.utils`
    is the one under `srt/`, whichever was discovered first."""
    index = build_index(
        tmp_path,
        {
            "a_backend/layers/utils/__init__.py": "WIDTH = 1\n",
            "srt/utils/__init__.py": "from sglang.srt.utils.common import *\n",
            "srt/utils/common.py": "WIDTH = 576\n",
            "srt/mem_cache/pool.py": """
                from sglang.srt.utils import WIDTH

                class Pool:
                    def __init__(self, size, layer_num):
                        self.width = WIDTH
            """,
        },
    )
    assert build(index, "Pool", {"size": 1, "layer_num": 1})["width"] == 576


def test_constructor_parameters_pass_through_star_kwargs(tmp_path):
    """`cls(**pool_kwargs)` with the class chosen at run time, and `super().__init__(*args,
    extra=4, **kwargs)` in a subclass that names none of its parameters."""
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                import torch

                class KVCache:
                    def __init__(self, size, dtype, layer_num, **kwargs):
                        self.extra = kwargs.get("extra", 1)
                        self.kv_buffer = [
                            torch.zeros(size, 8 * self.extra, dtype=dtype)
                            for _ in range(layer_num)
                        ]

                class Wide(KVCache):
                    def __init__(self, *args, **kwargs):
                        super().__init__(*args, extra=4, **kwargs)

                def make(kind, **pool_kwargs):
                    cls = Wide if kind == "wide" else KVCache
                    return cls(**pool_kwargs)

                class Holder:
                    def __init__(self, size, layer_num, kind):
                        kw = dict(size=size, dtype=torch.float16, layer_num=layer_num)
                        self.kv_buffer = make(kind, **kw).kv_buffer
            """
        },
    )
    for kind, extra in (("wide", 4), ("plain", 1)):
        built = build(index, "Holder", {"size": 10, "layer_num": 2, "kind": kind})
        expected = torch.zeros(10, 8 * extra, dtype=torch.float16).nbytes * 2
        assert nbytes(built["kv_buffer"]) == expected


@pytest.mark.parametrize(
    "expression",
    [
        "list(zip([1, 2, 3], ('a', 'b')))",
        "[a * b for a, b in zip(range(4), [5, 6, 7, 8])]",
        "list(enumerate(['x', 'y']))",
        "[i + n for i, n in enumerate((10, 20), start=3)]",
        "{name: off for (name, shape), off in zip([('k', 2), ('v', 3)], [0, 2])}",
    ],
)
def test_zip_and_enumerate_follow_python(tmp_path, expression):
    assert evaluate(tmp_path, expression) == eval(expression)


@pytest.mark.parametrize("call", ["unbind(0)", "unbind(1)", "unbind(dim=-1)", "unbind()"])
def test_unbind_gives_one_view_per_index(tmp_path, call):
    """MiniMax M3 pools cut one slab per layer: `rows = list(slab.unbind(0))`."""
    value = evaluate(
        tmp_path, f"list(torch.zeros((3, 4, 5), dtype=torch.uint8).{call})", "import torch"
    )
    oracle = list(eval(f"torch.empty((3, 4, 5), dtype=torch.uint8, device='meta').{call}"))
    assert [t.shape for t in value] == [tuple(t.shape) for t in oracle]
    assert [t.nbytes for t in value] == [t.nbytes for t in oracle]


@pytest.mark.parametrize("convert", ["tuple", "list"])
def test_a_tensor_converted_to_a_sequence_gives_its_rows(tmp_path, convert):
    """Ascend MHA pools hand HiCache `tuple(self.k_buffer)`, a [layer, ...] slab: one row each."""
    value = evaluate(
        tmp_path, f"{convert}(torch.zeros((3, 4, 5), dtype=torch.bfloat16))", "import torch"
    )
    oracle = eval(f"{convert}(torch.empty((3, 4, 5), dtype=torch.bfloat16, device='meta'))")
    assert type(value) is type(oracle)
    assert [t.shape for t in value] == [tuple(t.shape) for t in oracle]
    assert [t.nbytes for t in value] == [t.nbytes for t in oracle]


SETTER = """
    import torch

    class Pool:
        def __init__(self, size, layer_num, wide):
            self.width = 7
            if wide == "maybe" and machine_says_so():  # undecided: a call outside the tree
                self.width = 9
            self.kv_buffer = [torch.zeros(size, self._width, dtype=torch.uint8)]
            self.read_back = self.width

        @property
        def width(self):
            return self._width // 2

        @width.setter
        def width(self, value):
            self._width = value * 2
"""


def test_assigning_a_property_runs_its_setter(tmp_path):
    index = build_index(tmp_path, {"pool.py": SETTER})
    built = build(index, "Pool", {"size": 3, "layer_num": 1, "wide": "no"})
    assert built["kv_buffer"][0].shape == (3, 14)  # Python: _width = 7 * 2
    assert built["read_back"] == 7  # read through the getter: 14 // 2
    assert "width" not in built.instance.attrs  # not shadowed by an instance attribute


def test_a_setter_under_an_undecided_branch_leaves_what_it_sets_unknown(tmp_path):
    index = build_index(tmp_path, {"pool.py": SETTER})
    built = build(index, "Pool", {"size": 3, "layer_num": 1, "wide": "maybe"})
    assert_unknown(built["kv_buffer"][0], "could not be decided")


def test_a_view_of_another_buffer_is_not_measured_twice(tmp_path):
    """Ascend pools: `self.kv_buffer = torch.zeros((2, ...))`, `self.k_buffer = self.kv_buffer[0]`:
    k_buffer is kv_buffer's storage again. Views of a local allocation are buffers of their own."""
    from auditor.evaluation.measure import buffers_of

    index = build_index(
        tmp_path,
        {
            "pool.py": """
                import torch

                class Pool:
                    def __init__(self, size, layer_num):
                        self.kv_buffer = torch.zeros((2, layer_num, size, 8), dtype=torch.uint8)
                        self.k_buffer = self.kv_buffer[0]
                        self.v_buffer = self.kv_buffer[1]
                        fused = torch.zeros((2, size, 4), dtype=torch.uint8)
                        self.a_buffer = fused[0]
                        self.b_buffer = list(fused.unbind(0))
            """
        },
    )
    built = build(index, "Pool", {"size": 5, "layer_num": 2})
    assert built["k_buffer"].nbytes == 2 * 5 * 8  # the view itself is exact
    assert sorted(buffers_of(built.instance)) == ["a_buffer", "b_buffer", "kv_buffer"]


def test_a_defaultdict_stores_what_its_factory_makes(tmp_path):
    """`d[k].append(x)` keeps x, as in Python; keyword items are accepted like dict's."""
    source = """
        from collections import defaultdict

        def tables():
            d = defaultdict(list)
            d["a"].append(3)
            d["a"].append(4)
            c = defaultdict(int, base=1)
            c["x"] += 2
            return len(d["a"]), c["x"], c["base"]
    """
    expected = {}
    exec(textwrap.dedent(source), expected)  # the oracle: Python itself, on this test's own code
    assert evaluate(tmp_path, "tables()", prelude=source) == expected["tables"]()


ENUM_FLAG = {
    "pool.py": """
        import enum
        import torch

        class Mode(enum.Enum):
            DENSE = "dense"
            PACKED = "packed"

        NOT_AN_ENUM = 3

        class Pool:
            def __init__(self, size, layer_num, mode=Mode.DENSE):
                self.mode = mode
                self.packed = mode is Mode.PACKED
    """,
}


@pytest.mark.parametrize(
    ("text", "module", "reason"),
    [
        ("Mode.PACKED", "pool", None),
        ("Mode.GONE", "pool", "Mode.GONE is not an enum member in pool"),
        ("NOT_AN_ENUM.X", "pool", "NOT_AN_ENUM.X is not an enum member in pool"),
        ("Mode.PACKED", "elsewhere", "Mode.PACKED is not an enum member in elsewhere"),
    ],
)
def test_an_enum_option_is_the_code_s_own_member_or_unknown(tmp_path, text, module, reason):
    """An explored enum flag (`MemberName`) resolves to the member the code compares with; a
    name that is no member of that module stays Unknown, naming it (never a guess)."""
    from auditor.interpret.values import MemberName

    index = build_index(tmp_path, ENUM_FLAG)
    built = build(index, "Pool", {"mode": MemberName(module, text)})
    if reason is None:
        assert built["packed"] is True
        assert built["mode"].attrs["name"] == "PACKED"
    else:
        assert_unknown(built["mode"], reason)


def test_a_tensor_device_is_a_torch_device_and_a_text_is_not(tmp_path):
    """0.5.23's paged host: `_alloc_key = self.gpu_device.type if isinstance(self.gpu_device,
    torch.device) else str(self.gpu_device)`. A tensor's `.device` and `torch.device(...)` are
    torch devices (modelled as their text); a text passed as `device="cpu"` is not. As torch
    itself answers, checked against it below."""
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                import torch

                class Pool:
                    def __init__(self, size, layer_num, device="cpu"):
                        self.k_buffer = [torch.zeros((size, 4), device=device) for _ in range(layer_num)]
                        gpu = self.k_buffer[0].device
                        self.from_tensor = isinstance(gpu, torch.device)
                        self.from_text = isinstance(device, torch.device)
                        self.made = isinstance(torch.device("cuda", 1), torch.device)
                        self.text = str(torch.device("cuda", 1))
                        self.key = gpu.type if isinstance(gpu, torch.device) else str(gpu)
            """
        },
    )
    built = build(index, "Pool", {"size": 8, "layer_num": 2})
    real = torch.zeros((8, 4), device="cpu").device
    assert built["from_tensor"] is isinstance(real, torch.device) is True
    assert built["from_text"] is isinstance("cpu", torch.device) is False
    assert built["made"] is True
    assert built["text"] == str(torch.device("cuda", 1)) == "cuda:1"
    assert built["key"] == real.type == "cpu"


def test_a_logger_call_in_a_constructor_leaves_the_instance_whole(tmp_path):
    """`logger.info(...)` in a constructor writes a line: it could not set an attribute, so an
    attribute the class does not have is absent (`getattr(pool, "x", None)` is None), not
    "may be set on a path not followed" (SGLang 0.5.21's `MambaPool`)."""
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                import logging

                logger = logging.getLogger(__name__)

                class Pool:
                    def __init__(self, size):
                        self.size = size
                        logger.info(f"allocated {size}")
                        logging.warning("twice")
            """
        },
    )
    built = build(index, "Pool", kwargs={"size": 8})
    assert built.instance.incomplete is None
    assert built.instance.attrs["size"] == 8
