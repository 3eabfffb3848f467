"""One rule for what iterating a value yields (interpret/iteration.py): a `for` loop, a
comprehension, `tuple()`/`list()` and the folds read the same items off the same value. Before,
each had its own list of what it iterates: a `for` loop refused a range or a set a
comprehension iterated, so a pool looping `for kind in set(kinds):` left its buffers unknown
where `[... for kind in set(kinds)]` gave them."""

from __future__ import annotations

import pytest
from helpers import assert_unknown, evaluate

_PRELUDE = """
    import enum
    import functools
    import operator

    class Kind(enum.Enum):
        K = 1
        V = 2
        ALIAS = 1

    def by_loop(xs):
        out = []
        for x in xs:
            out.append(x)
        return out

    def by_comprehension(xs):
        return [x for x in xs]

    def by_tuple(xs):
        return list(tuple(xs))

    def by_fold(xs):
        return functools.reduce(lambda acc, x: acc + [x], xs, [])
"""

_WAYS = ("by_loop", "by_comprehension", "by_tuple", "by_fold")


@pytest.mark.parametrize(
    "iterable, expected",
    [
        ("[1, 2]", [1, 2]),
        ("(3, 4)", [3, 4]),
        ("'ab'", ["a", "b"]),
        ("{'k': 1, 'v': 2}", ["k", "v"]),
        ("range(1, 7, 3)", [1, 4]),
        ("frozenset({5})", [5]),
        ("set([6])", [6]),
        ("reversed([1, 2])", [2, 1]),
    ],
)
@pytest.mark.parametrize("way", _WAYS)
def test_every_way_of_iterating_reads_the_same_items(tmp_path, way, iterable, expected):
    assert evaluate(tmp_path, f"{way}({iterable})", _PRELUDE) == expected


@pytest.mark.parametrize("way", _WAYS)
def test_an_enum_class_gives_its_members_without_aliases_every_way(tmp_path, way):
    got = evaluate(tmp_path, f"[m.name for m in {way}(Kind)]", _PRELUDE)
    assert got == ["K", "V"]


@pytest.mark.parametrize("way", _WAYS)
def test_a_value_not_modelled_stays_unknown_every_way(tmp_path, way):
    # a number is no iterable: Python raises, the interpreter says it does not model it
    got = evaluate(tmp_path, f"{way}(7)", _PRELUDE)
    assert_unknown(got)
