"""What the interpreter remembers between builds and config points, and when it forgets it.

Module bodies are declared once per config point (shared by its five builds), never across
points; per-node facts (declaration plans, raises, locations, source texts, literals) and
class orders (MRO, until bases are linked again) are remembered for the whole run.
"""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest
from helpers import build_index, find_class, module_value, settings

from auditor.evaluation.evaluate import PoolEvaluator
from auditor.evaluation.matrix import flag_dimension
from auditor.frontend.index import relinked
from auditor.interpret import namespaces, scopes, syntax
from auditor.interpret.memos import MEMOS
from auditor.interpret.scopes import raises_in
from auditor.interpret.syntax import location_of, source_of

POOL = {
    "utils.py": """
        def is_hip():
            return False
    """,
    "consts.py": """
        from utils import is_hip

        if is_hip():
            WIDTH = 8
        else:
            WIDTH = 4
    """,
    "pool.py": """
        import torch
        from consts import WIDTH

        class Pool:
            def __init__(self, size, layer_num):
                self.k_buffer = [
                    torch.zeros((size, WIDTH), dtype=torch.bfloat16) for _ in range(layer_num)
                ]
    """,
}


def _declarations(monkeypatch, module) -> list[int]:
    """Counts how many times `module`'s body is declared (one entry per declaration)."""
    seen: list[int] = []
    real = namespaces.declaration_plan

    def counting(statements, of_module, in_class):
        if statements is module.parsed.tree.body:
            seen.append(1)
        return real(statements, of_module, in_class)

    monkeypatch.setattr(namespaces, "declaration_plan", counting)
    return seen


@pytest.mark.parametrize("hip, width", [(False, 4), (True, 8)])
def test_a_module_is_declared_once_for_the_five_builds_of_a_point(
    tmp_path, monkeypatch, hip, width
):
    index = build_index(tmp_path, POOL)
    declared = _declarations(monkeypatch, index.modules["consts"])
    evaluator = PoolEvaluator(index, settings(flags={"is_hip": [False, True]}))
    result, reads = evaluator.run_point(
        find_class(index, "Pool"), None, {flag_dimension("is_hip"): hip}
    )
    assert len(declared) == 1  # five builds, one declaration
    # what the first build's declaration read reaches the point's reads (explore() needs it)
    assert flag_dimension("is_hip") in reads
    assert result.device["k_buffer"].bytes_per_token_per_layer == width * 2  # bf16: 2 bytes


def test_module_state_is_not_shared_across_config_points(tmp_path, monkeypatch):
    index = build_index(tmp_path, POOL)
    declared = _declarations(monkeypatch, index.modules["consts"])
    evaluator = PoolEvaluator(index, settings(flags={"is_hip": [False, True]}))
    evaluation = evaluator.evaluate(find_class(index, "Pool"))
    assert evaluation.varied == [flag_dimension("is_hip")]
    sizes = [p.device["k_buffer"].bytes_per_token_per_layer for p in evaluation.feasible]
    assert sizes == [4 * 2, 8 * 2]  # each point declared the module with its own flag
    assert len(declared) == 2


MODULE = """
    import os.path, math as m
    from collections import OrderedDict as OD
    A = 1
    A += 2; B = A * 10
    C: int = 7
    D = E = 5
    def f():
        return 3
    class K:
        X = 4
        X += 1
        def g(self):
            return 1
    try:
        F = 6
    except ImportError:
        F = 0
    G = f() + K.X
"""


@pytest.mark.parametrize("name", ["A", "B", "C", "D", "E", "F", "G"])
def test_a_declaration_plan_binds_what_python_binds(tmp_path, name):
    expected: dict = {}
    exec(textwrap.dedent(MODULE), expected)  # the test's own source, as the oracle
    index = build_index(tmp_path, {"m.py": MODULE})
    for point in ({}, {"x": 1}):  # the second declaration reuses the plan
        assert module_value(index, "m", name, point) == expected[name]


def test_a_class_body_plan_keeps_its_methods_and_runs_its_statements(tmp_path):
    index = build_index(tmp_path, {"m.py": textwrap.dedent(MODULE) + "H = K.g\n"})
    assert module_value(index, "m", "H").function is find_class(index, "K").methods["g"]


def _block(source: str) -> tuple:
    return cst.parse_module(textwrap.dedent(source)).body


def test_raises_in_ignores_nested_definitions_and_is_remembered_per_block():
    raising = _block("if x:\n    raise ValueError()\n")
    nested = _block("def f():\n    raise ValueError()\nclass C:\n    y = lambda: 1\n")
    twin = _block("if x:\n    raise ValueError()\n")  # same text, another block
    assert raises_in(raising) is True and raises_in(raising) is True
    assert raises_in(nested) is False
    assert raises_in(twin) is True
    assert raises_in(list(nested)) is False


def test_node_locations_and_sources_are_those_of_the_parsed_module(tmp_path):
    index = build_index(tmp_path, {"m.py": "X = (1 +\n     2)\n"})
    parsed = index.modules["m"].parsed
    value = parsed.tree.body[0].body[0].value
    first = location_of(parsed, value)
    assert first == parsed.location(value)
    assert (first.line, first.column, first.end_line) == (1, 6, 2)  # inside the parentheses
    assert location_of(parsed, value) is first  # remembered
    assert source_of(parsed, value) == parsed.code(value)
    assert "1 +\n     2" in source_of(parsed, value)


def test_every_memo_table_is_owned_by_one_object_bounded_and_forgotten_at_once(tmp_path):
    index = build_index(tmp_path, {"m.py": "X = (1 +\n     2)\nif X:\n    raise ValueError()\n"})
    parsed = index.modules["m"].parsed
    value = parsed.tree.body[0].body[0].value
    first = location_of(parsed, value)
    source_of(parsed, value)
    raises_in(parsed.tree.body)
    sizes = MEMOS.sizes()
    assert sizes["locations"] >= 1 and sizes["sources"] >= 1 and sizes["raises"] >= 1
    assert set(MEMOS.limits) == set(MEMOS.tables()) - {"field_texts"}  # weak: bounded by life
    # the modules look up the very tables the owner holds
    assert scopes._RAISES is MEMOS.raises and syntax._LOCATIONS is MEMOS.locations
    assert namespaces._PLANS is MEMOS.plans
    MEMOS.forget()
    assert not any(MEMOS.sizes().values())
    again = location_of(parsed, value)
    assert again == first and again is not first  # worked out again after forgetting


def test_an_audit_run_starts_with_no_memo_of_an_earlier_run(tmp_path, monkeypatch):
    from auditor.pipeline import audit

    build_index(tmp_path, {"m.py": "X = 1\n"})
    forgot = []
    monkeypatch.setattr(MEMOS, "forget", lambda: forgot.append(True))
    audit([tmp_path], settings())
    assert forgot == [True]


def test_decorators_are_remembered_and_not_shared_mutably(tmp_path):
    index = build_index(
        tmp_path, {"m.py": "class K:\n    @property\n    @functools.cache\n    def p(self): pass\n"}
    )
    method = find_class(index, "K").methods["p"]
    names = method.decorators
    assert names == ["property", "functools.cache"]
    names.append("mutated")
    assert method.decorators == ["property", "functools.cache"]
    assert method.has_decorator("cache") and not method.has_decorator("mutated")


HIERARCHY = {
    "m.py": """
        import torch

        class A:
            def who(self):
                return "A"

        class B(A):
            pass

        class D(B):
            pass

        class E(torch.nn.Module):
            pass
    """
}


def test_mro_is_remembered_until_bases_are_linked_again(tmp_path):
    index = build_index(tmp_path, HIERARCHY)
    a, b, d = (find_class(index, name) for name in "ABD")
    assert d.mro() == [d, b, a] and d.find_method("who") is a.methods["who"]
    b.bases.clear()  # behind the index's back: the remembered order stays
    assert d.mro() == [d, b, a]
    relinked()
    assert d.mro() == [d, b] and d.find_method("who") is None
    index._link_bases(b)  # linking bases again forgets every remembered order
    assert d.mro() == [d, b, a] and d.find_method("who") is a.methods["who"]
    order = d.mro()
    order.append(d)  # callers get their own list
    assert d.mro() == [d, b, a]


def test_opaque_bases_follow_relinking(tmp_path):
    index = build_index(tmp_path, HIERARCHY)
    b, e = find_class(index, "B"), find_class(index, "E")
    assert e.has_opaque_base() and not b.has_opaque_base()
    b.external_bases.append("torch.nn.Module")
    relinked()
    assert b.has_opaque_base()


def test_find_module_is_remembered_per_importing_module(tmp_path):
    index = build_index(
        tmp_path,
        {
            "a/pkg/__init__.py": "",
            "a/pkg/util.py": "WHERE = 'a'\n",
            "a/pkg/user.py": "from pkg.util import WHERE\n",
            "b/pkg/__init__.py": "",
            "b/pkg/util.py": "WHERE = 'b'\n",
            "b/pkg/user.py": "from pkg.util import WHERE\n",
        },
    )
    users = sorted(
        (m for m in index.modules.values() if m.name == "pkg.user"), key=lambda m: m.path
    )
    for _ in range(2):  # the second round answers from memory, the same way
        for user, root in zip(users, "ab"):
            found = index.find_module("pkg.util", user)
            assert found.path == f"{root}/pkg/util.py"
    assert index.find_module("pkg.missing", users[0]) is None
    assert index.find_module("pkg.missing", users[0]) is None


def test_factory_search_reads_each_functions_returns_once(tmp_path, monkeypatch):
    from auditor.pairing import factories

    source = (
        "def make(flag):\n    if flag:\n        return HostA(1)\n    return (HostB, {})\n"
        "def other():\n    return 3\n"
    )
    index = build_index(tmp_path, {"m.py": source})
    module = index.modules["m"]
    MEMOS.forget()
    visits: list[int] = []
    plain = factories._Returns

    class Counted(plain):
        def __init__(self) -> None:
            visits.append(1)
            super().__init__()

    monkeypatch.setattr(factories, "_Returns", Counted)
    assert factories.factories_in(module, {"HostA"}) == {"make"}
    assert factories.factories_in(module, {"HostB"}) == {"make"}  # a later round's names
    assert factories.factories_in(module, {"Nothing"}) == set()
    assert len(visits) == 2  # make and other, once each across the rounds
    MEMOS.forget()
    assert factories.factories_in(module, {"HostB"}) == {"make"} and len(visits) == 4


def test_what_a_block_changes_in_place_is_remembered_per_block():
    """changed_in_place runs at every undecided block (mark_undecided): remembered per block as
    assigned_targets is (unremembered, it cost vLLM 0.11.0 half again its wall time)."""
    from auditor.interpret.scopes import changed_in_place

    block = _block("out.append(x)\nself.table[k] = v\nd.update(e)\ndef f():\n    g.append(1)\n")
    first = changed_in_place(block)
    assert first == [("name", "out"), ("self", "table"), ("name", "d")]
    assert tuple(block) in MEMOS.changed
    assert changed_in_place(block) == first
