"""Folds, iterator builders and text configs of the standard library (session 43): pools sizing
rows with `functools.reduce(operator.mul, dims, 1)`, carving views at
`itertools.accumulate(sizes)` offsets, aligning with `math.lcm`, sorting specs by a `key`,
sending their layout through `json.dumps`/`json.loads` or reading it from an embedded TOML text
were all "outside the audited tree": every figure behind them unknown, the pair never compared.
Each is modelled now on values known whole, within the interpreter's bounds."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from helpers import assert_unknown, audit_json, evaluate, finding_figures, tree_modules, write_tree

from auditor.limits import Limits

_PRELUDE = """
    import functools, itertools, json, math, operator
    from functools import reduce
    from itertools import accumulate, chain

    class Spec:
        def __init__(self, name, width):
            self.name, self.width = name, width

    SPECS = [Spec("k", 64), Spec("v", 128), Spec("s", 4)]
    TOML_TEXT = '''
    [cache]
    head_dim = 128
    formats = ["fp8", "bf16"]
    '''
"""


@pytest.mark.parametrize(
    "expression, expected",
    [
        ("functools.reduce(operator.mul, [2, 3, 4], 1)", 24),
        ("reduce(lambda a, b: a * b, (2, 3, 4))", 24),
        ("reduce(operator.add, [], 5)", 5),
        ("list(accumulate([1, 2, 3]))", [1, 3, 6]),
        ("list(itertools.accumulate([2, 3], initial=0))", [0, 2, 5]),
        ("list(itertools.accumulate([2, 3, 4], operator.mul))", [2, 6, 24]),
        ("list(chain([1], (2, 3), 'a'))", [1, 2, 3, "a"]),
        ("list(itertools.chain.from_iterable([[1], [2, 3]]))", [1, 2, 3]),
        ("list(itertools.islice(range(10), 2, 8, 3))", [2, 5]),
        ("list(itertools.product([1, 2], 'ab'))", [(1, "a"), (1, "b"), (2, "a"), (2, "b")]),
        ("math.lcm(4, 6, 10)", 60),
        ("pow(2, 5)", 32),
        ("pow(3, 4, 5)", 1),
        ("operator.floordiv(7, 2)", 3),
        ("json.loads(json.dumps({'a': (1, 2), 'b': None}))", {"a": [1, 2], "b": None}),
        ("json.dumps([1, 2], separators=(',', ':'))", "[1,2]"),
        ("tomllib_loads(TOML_TEXT)['cache']", {"head_dim": 128, "formats": ["fp8", "bf16"]}),
        ("max(SPECS, key=lambda s: s.width).name", "v"),
        ("min(SPECS, key=lambda s: s.width).name", "s"),
        ("[s.name for s in sorted(SPECS, key=lambda s: s.width, reverse=True)]", ["v", "k", "s"]),
        ("sorted([2, 1, 2.0], reverse=True)", [2, 2.0, 1]),  # stable, as Python sorts
        ("max([3, 5, 5.0])", 5),  # the first of equals, as Python gives
    ],
)
def test_each_gives_what_python_gives(tmp_path, expression, expected):
    prelude = _PRELUDE + "\n    from tomllib import loads as tomllib_loads\n"
    got = evaluate(tmp_path, expression, prelude)
    assert got == expected and type(got) is type(expected), got


@pytest.mark.parametrize(
    "expression, words",
    [
        ("reduce(operator.add, [])", "empty sequence with no initial value"),
        ("reduce(operator.add, UNKNOWN_NAME)", "not defined"),
        ("len(itertools.chain([1], [2]))", "len()"),  # an iterator has no length
        ("list(itertools.product(range(100), range(100), range(100)))", "over the limit"),
        ("pow(2, 10 ** 9)", "over the limit"),
        ("json.dumps(SPECS)", "not plain data"),
        ("json.dumps({'a': 1}, default=str)", "options other than formatting"),
        ("tomllib_loads('a = ')", "no TOML"),
        ("tomllib_loads('a = 1979-05-27')", "dates or times"),
        ("max(SPECS, key=lambda s: s.missing)", "missing"),
        ("list(itertools.islice([1, 2], -1))", "islice()"),
    ],
)
def test_what_python_refuses_or_the_bounds_forbid_stays_unknown(tmp_path, expression, words):
    prelude = _PRELUDE + "\n    from tomllib import loads as tomllib_loads\n"
    assert_unknown(evaluate(tmp_path, expression, prelude, Limits()), words)


def _tree(host_scale_term: str) -> dict[str, str]:
    """A device pool whose row is the product of its dims, K/V/scales carved from one flat
    row at accumulated offsets; a host mirror reading the layout back from JSON and aligning
    each row to the lcm of its transfer granules."""
    return {
        "kvtier/__init__.py": "",
        "kvtier/layout.py": """
            import functools
            import itertools
            import json
            import math
            import operator

            import torch

            SIZES = {"fp8": 1, "bf16": 2}


            def row_parts(head_dim, kv_heads, fmt):
                elt = SIZES[fmt]
                parts = [("k", kv_heads * head_dim * elt), ("v", kv_heads * head_dim * elt)]
                if fmt == "fp8":
                    parts.append(("scale", kv_heads * 4))
                return parts


            def offsets(parts):
                return [0, *itertools.accumulate(size for _, size in parts)]


            def row_bytes(parts):
                return functools.reduce(operator.add, (size for _, size in parts), 0)


            def to_wire(parts):
                return json.dumps({"parts": parts})


            def aligned(n, granules):
                step = math.lcm(*granules)
                return -(-n // step) * step
        """,
        "kvtier/device.py": """
            import torch

            from .layout import offsets, row_bytes, row_parts


            class PagedKV:
                def __init__(self, size, layer_num, head_dim, kv_heads, fmt, device="cuda"):
                    self.parts = sorted(row_parts(head_dim, kv_heads, fmt), key=lambda p: p[0])
                    width = row_bytes(self.parts)
                    self.flat = [torch.empty((size, width), dtype=torch.uint8, device=device)
                                 for _ in range(layer_num)]
        """,
        "kvtier/host.py": f"""
            import json

            import torch

            from .layout import aligned


            class PinnedKV:
                def __init__(self, size, layer_num, wire, device="cpu"):
                    parts = json.loads(wire)["parts"]
                    width = sum(size_ for name, size_ in parts {host_scale_term})
                    width = aligned(width, (4, 8))
                    self.flat = [torch.empty((size, width), dtype=torch.uint8, device=device)
                                 for _ in range(layer_num)]
        """,
        "kvtier/setup.py": """
            from .device import PagedKV
            from .host import PinnedKV
            from .layout import to_wire


            def make(model, args, device="cuda", host="cpu"):
                gpu = PagedKV(args.gpu_tokens, model["layers"], model["head_dim"],
                              model["kv_heads"], args.kv_format, device=device)
                cpu = PinnedKV(args.cpu_tokens, model["layers"], to_wire(gpu.parts),
                               device=host)
                return gpu, cpu
        """,
    }


@pytest.mark.parametrize("term, drifted", [("", False), ('if name != "scale"', True)])
def test_a_host_dropping_a_part_of_a_wired_layout_is_reported(
    tmp_path, capsys, monkeypatch, term, drifted
):
    root = write_tree(tmp_path, _tree(term))
    report = audit_json(root, capsys)
    summary = report["summary"]
    assert summary["pairs_compared"] == summary["pairs"] == 1
    [setup] = tree_modules(root, monkeypatch, "kvtier", "setup")
    model = {"layers": 2, "head_dim": 128, "kv_heads": 8}
    args = SimpleNamespace(gpu_tokens=64, cpu_tokens=128, kv_format="fp8")
    gpu, cpu = setup.make(model, args, device="meta", host="meta")
    real = (cpu.flat[0].nbytes // 128, gpu.flat[0].nbytes // 64)
    assert (real[0] != real[1]) == drifted
    figures = finding_figures(report)
    if not drifted:
        assert figures == {}
        return
    [finding] = report["findings"]
    assert "kv_format=fp8" in finding["message"]
    host, device = figures["flat"]  # (at the finding's own point: 2048 against 2080 here)
    assert host * real[1] == device * real[0] and host < device
