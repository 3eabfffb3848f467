"""Token counts carried as lanes (auditor/interpret/lanes.py): one build per layer count stands
for the builds at each token count, and the audit reads exactly as with one build per count;
where the builds would part, the lanes diverge and the point is built one count at a time."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import audit_tree, every_report, write_tree

from auditor.evaluation.evaluate import PoolEvaluator, build_plan, each_count
from auditor.interpret import lanes
from auditor.interpret.lanes import Diverged, TokenLanes, combine, lane_view, lanes_of
from auditor.interpret.values import Instance, Tensor, Unknown
from auditor.location import Location
from auditor.settings import Settings

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
HERE = Location("x.py", 1, 0)


run, reports = audit_tree, every_report


def both_ways(root: Path, monkeypatch) -> tuple[str, str, dict]:
    """The audit's reports with lanes and one count at a time, and the lanes' tally."""
    monkeypatch.setitem(lanes.LANES_STATS, "lanes", 0)
    monkeypatch.setitem(lanes.LANES_STATS, "diverged", 0)
    with_lanes = reports(run(root))
    tally = dict(lanes.LANES_STATS)
    monkeypatch.setattr(PoolEvaluator, "lanes", False)
    one_by_one = reports(run(root))
    monkeypatch.setattr(PoolEvaluator, "lanes", True)
    return with_lanes, one_by_one, tally


# ---- the value --------------------------------------------------------------------------


def test_arithmetic_runs_lane_by_lane_and_agreeing_lanes_are_one_value():
    size = TokenLanes((8192, 16384))
    rows = (size + 64) * 2 // 4
    assert isinstance(rows, TokenLanes) and rows.items == (4128, 8224)
    assert lanes_of([3, 3]) == 3 and type(lanes_of([3, 3])) is int
    assert type(lanes_of([3, 3.0])) is TokenLanes  # an int and a float are not one value
    assert (size * 0) == 0 and type(size * 0) is int
    assert (-size).items == (-8192, -16384)
    assert (size - size) == 0


def test_comparisons_and_truth_agree_or_diverge():
    size = TokenLanes((8192, 16384))
    assert (size > 0) is True and bool(size) is True
    assert (size == 5) is False
    with pytest.raises(Diverged):
        bool(size > 10_000)
    with pytest.raises(Diverged):
        _ = size == 8192


@pytest.mark.parametrize(
    "use",
    [hash, str, repr, int, float, len, iter, lambda v: f"{v}", lambda v: [0] * v, round],
)
def test_what_would_part_the_builds_diverges(use):
    with pytest.raises(Diverged):
        use(TokenLanes((1, 2)))


def test_an_unknown_naming_lanes_diverges_only_in_a_lanes_build():
    words = "arithmetic on TokenLanes and int"
    assert Unknown(words).reason == words
    with lanes.Active(), pytest.raises(Diverged):
        Unknown(words)


def test_a_tensor_keeps_its_identity_in_each_lane():
    tensor = Tensor((TokenLanes((4, 8)), 16), "dtype", TokenLanes((128, 256)), HERE)
    first, second = lane_view(tensor, 0), lane_view(tensor, 1)
    assert (first.shape, first.nbytes, second.shape, second.nbytes) == ((4, 16), 128, (8, 16), 256)
    assert first.ident == second.ident == tensor.ident
    plain = Tensor((4, 16), "dtype", 128, HERE)
    assert lane_view(plain, 1) is plain


def test_combining_results_keeps_sizes_side_by_side_and_refuses_other_differences():
    a = Tensor((4, 16), "d", 128, HERE)
    b = Tensor((8, 16), "d", 256, HERE)
    made = combine([a, b])
    assert made.shape[1] == 16 and made.shape[0].items == (4, 8) and made.nbytes.items == (128, 256)
    with pytest.raises(Diverged):
        combine([a, Tensor((8, 16), "other dtype", 256, HERE)])
    with pytest.raises(Diverged):
        combine([[1, 2], [1]])
    assert combine(["log 4", "log 8"]).items == ("log 4", "log 8")  # a text made of counts
    with pytest.raises(Diverged):
        combine([object(), object()])  # two objects: the builds made different things
    with pytest.raises(Diverged):
        combine([None, "b"])
    with pytest.raises(Diverged):
        combine([Unknown("a"), Unknown("b")])
    assert combine([Unknown("a"), Unknown("a")]) == Unknown("a")


def test_a_pool_and_its_host_are_seen_as_one_lane():
    device = Instance(cls=None, attrs={"size": TokenLanes((4, 8))})  # type: ignore[arg-type]
    host = Instance(cls=None, attrs={"device_pool": device, "size": 3})  # type: ignore[arg-type]
    devices, hosts = each_count([(device, TokenLanes((4, 8)), 2)], [(host, TokenLanes((4, 8)), 2)])
    assert [(d.attrs["size"], t, layers) for d, t, layers in devices] == [(4, 4, 2), (8, 8, 2)]
    assert [h.attrs["device_pool"] for h, _, _ in hosts] == [d for d, _, _ in devices]


def test_two_or_three_builds_stand_for_the_five():
    settings = Settings()
    lanes_plan = build_plan(settings, "lanes")
    assert [(t.items, layers) for t, layers, _ in lanes_plan] == [
        ((8192, 16384), 2),
        ((8192, 16384, 24576), 3),
    ]
    one = [(t, layers) for t, layers, _ in build_plan(settings, "one")]
    assert one == [(8192, 2), (16384, 2), (8192, 3), (16384, 3), (24576, 3)]
    # code whose first builds fill a module-level cache: those one by one, then lanes
    settled = build_plan(settings, "settled")
    assert [(t, layers) for t, layers, _ in settled[:2]] == [(8192, 2), (16384, 2)]
    assert settled[2][0].items == (8192, 16384, 24576) and settled[2][1] == 3


# ---- whole audits ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "fixture", sorted(p.name for p in FIXTURES.iterdir() if p.is_dir() and p.name != "vllm")
)
def test_every_fixture_reads_the_same_with_lanes(fixture, monkeypatch):
    with_lanes, one_by_one, tally = both_ways(FIXTURES / fixture, monkeypatch)
    assert with_lanes == one_by_one
    if not fixture.startswith("vllm"):  # vLLM's specs are not pools built at token counts
        assert tally["lanes"] > 0, tally


PARTING = """
    import torch
    {prelude}

    class Pool:
        def __init__(self, size, layer_num, head_dim=128):
            self.size = size
            dtype = torch.bfloat16
            {body}
            self.k_buffer = [
                torch.zeros((size + 1, head_dim), dtype=dtype) for _ in range(layer_num)
            ]
            self.v_buffer = [
                torch.zeros((size + 1, head_dim), dtype=dtype) for _ in range(layer_num)
            ]
        {methods}

    class PoolHost:
        def __init__(self, device_pool: Pool, host_size):
            self.device_pool = device_pool
            self.size = host_size
            self.layer_num = len(device_pool.k_buffer)
            self.kv_buffer = torch.empty(
                (2, self.layer_num, host_size, 128), dtype=torch.bfloat16
            )
            self.extra_buffer = torch.empty(
                (self.layer_num, host_size, 64), dtype=torch.bfloat16
            )
"""

NL = "\n" + " " * 12  # a new line of the constructor's body

# (module prelude, constructor lines, methods, whether the lanes diverge)
CASES = {
    # the same on every build: lanes finish
    "plain": ("", "pass", "", False),
    "padding": ("", "self.pad = (size + 63) // 64 * 64", "", False),
    "agreeing branch": ("", "dtype = torch.bfloat16 if size > 0 else torch.float32", "", False),
    "count in a text": ("", 'self.name = f"pool-{size}"', "", False),
    "inverted count": (
        "",
        "rows = -(~size)" + NL + "self.extra_buffer = "
        "[torch.zeros((rows, 64), dtype=dtype) for _ in range(layer_num)]",
        "",
        False,
    ),
    "a view given back": (
        "",
        "a = torch.zeros((size, 64), dtype=dtype)"
        + NL
        + "if a.contiguous() is a:"
        + NL
        + "    self.extra_buffer = [torch.zeros((size, 64), dtype=dtype) "
        "for _ in range(layer_num)]",
        "",
        False,
    ),
    "lists given back by enumerate": (
        "",
        "self.s_buffer = [[torch.zeros((size, 64), dtype=dtype)] for _ in range(layer_num)]"
        + NL
        + "for i, rows in enumerate(self.s_buffer):"
        + NL
        + "    rows.append(torch.zeros((size, 64), dtype=dtype))",
        "",
        False,
    ),
    "a property behind getattr": (
        "",
        "self.reads = []"
        + NL
        + 'rows = getattr(self, "padded_rows", size)'
        + NL
        + "self.extra_buffer = [torch.zeros((size, rows * len(self.reads)), dtype=dtype) "
        "for _ in range(layer_num)]",
        "@property"
        + "\n        def padded_rows(self):"
        + "\n            self.reads.append(1)\n            return 64",
        False,
    ),
    # the builds part: lanes diverge, the point is built one count at a time
    "branch on the count": (
        "",
        "dtype = torch.float32 if size > 10000 else torch.bfloat16",
        "",
        True,
    ),
    "text as a key": ("", 'self.table = {f"pool-{size}": 1}', "", True),
    "text read back": (
        "",
        'tag = "kv" f"{size}"' + NL + 'self.kv = tag.startswith("kv")',
        "",
        True,
    ),
    "loop over the count": ("", "self.rows = sum(1 for _ in range(size // 4096))", "", True),
    "compared with a literal": ("", "self.small = size == 8192", "", True),
    # module state the builds share: each build sees what the ones before it left
    "a module list counting builds": (
        "_BUILT = []",
        "_BUILT.append(1)"
        + NL
        + "if len(_BUILT) <= 3:"
        + NL
        + "    self.extra_buffer = [torch.zeros((size, 64), dtype=dtype) "
        "for _ in range(layer_num)]",
        "",
        True,
    ),
    "a workspace made by the first build": (
        "_WS = []",
        "if not _WS:"
        + NL
        + "    _WS.append(torch.zeros((size, 64), dtype=dtype))"
        + NL
        + "self.ws_buffer = _WS[0]",
        "",
        True,
    ),
    "a count kept by the first build, then a branch": (
        "_WS = []",
        "if not _WS:"
        + NL
        + "    _WS.append(size * 2)"
        + NL
        + "self.ws_buffer = [torch.zeros((_WS[0], 64), dtype=dtype) "
        "for _ in range(layer_num)]" + NL + "if size > 10000:" + NL + "    dtype = torch.float16",
        "",
        True,
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_where_the_builds_part_the_lanes_diverge_and_the_audit_reads_the_same(
    case, tmp_path, monkeypatch
):
    prelude, body, methods, diverges = CASES[case]
    source = PARTING.format(prelude=prelude, body=body, methods=methods)
    write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/pools.py": source})
    with_lanes, one_by_one, tally = both_ways(tmp_path, monkeypatch)
    assert with_lanes == one_by_one
    assert (tally["diverged"] > 0) is diverges, tally
    assert tally["lanes"] + tally["diverged"] > 0


def test_a_refused_point_keeps_the_demands_of_its_first_build_only(tmp_path, monkeypatch):
    """`size // 128 == 999` then a refusal: one by one only the first build runs, where
    `size // 128` is 64 and equals no dimension; in lane 2 it is 128, `head_dim`'s value, so
    a demand noted for every lane would try head_dim=999 (a second point)."""
    body = (
        "h = head_dim + 0" + NL + "if size // 128 == 999:" + NL + "    pass" + NL + "assert h < 0"
    )
    source = PARTING.format(prelude="", body=body, methods="")
    write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/pools.py": source})
    with_lanes, one_by_one, tally = both_ways(tmp_path, monkeypatch)
    assert with_lanes == one_by_one
    assert tally == {"lanes": 1, "diverged": 0}


def test_a_demand_on_a_compared_count_is_noted_as_each_build_notes_it(tmp_path, monkeypatch):
    """`size == 128` at counts 8192 and 16384: each build compares its count with 128 and
    notes it; the lanes agree (never equal) and note it as the builds would."""
    source = PARTING.format(prelude="", body="self.odd = size == 128", methods="")
    write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/pools.py": source})
    demands: list[set] = []
    original = PoolEvaluator.evaluate

    def noting(self, *args, **kwargs):
        evaluation = original(self, *args, **kwargs)
        demands.append(set(self.demands))
        return evaluation

    monkeypatch.setattr(PoolEvaluator, "evaluate", noting)
    with_lanes, one_by_one, tally = both_ways(tmp_path, monkeypatch)
    assert with_lanes == one_by_one
    assert tally["diverged"] == 0
    half = len(demands) // 2
    assert demands[:half] == demands[half:]
    assert any(("size", 128) in d for d in demands), demands


CACHE_FILLED_ONCE = """
    import collections
    import torch

    _FUNCS = collections.defaultdict(lambda: torch.zeros)

    class Pool:
        def __init__(self, size, layer_num, page_size, head_dim=128):
            self.size = size
            alloc = _FUNCS["cpu"]  # the first build inserts the default, the others find it
            {extra}
            self.k_buffer = [
                alloc((size + page_size, head_dim), dtype=torch.bfloat16)
                for _ in range(layer_num)
            ]

    class PoolHost:
        def __init__(self, device_pool: Pool, host_size):
            self.device_pool = device_pool
            self.size = host_size
            self.layer_num = len(device_pool.k_buffer)
            self.k_buffer = torch.empty(
                (self.layer_num, host_size, 128), dtype=torch.bfloat16
            )
"""


def test_code_filling_a_module_cache_once_is_built_settled(tmp_path, monkeypatch):
    """The first build of a point fills a module-level table: lanes would stand for builds
    that saw it empty, so that point is built one by one, and the later points of the pair
    build the first layer count one by one, then the rest as lanes (they change nothing)."""
    source = CACHE_FILLED_ONCE.format(extra="pass")
    write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/pools.py": source})
    with_lanes, one_by_one, tally = both_ways(tmp_path, monkeypatch)
    assert with_lanes == one_by_one
    assert tally["diverged"] >= 1 and tally["lanes"] >= 1, tally


def test_code_changing_module_state_at_every_build_is_built_one_by_one(tmp_path, monkeypatch):
    source = CACHE_FILLED_ONCE.format(extra='_FUNCS["built"] = _FUNCS.get("built", 0) + 1')
    write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/pools.py": source})
    with_lanes, one_by_one, tally = both_ways(tmp_path, monkeypatch)
    assert with_lanes == one_by_one
    assert tally["lanes"] == 0 and tally["diverged"] >= 2, tally
