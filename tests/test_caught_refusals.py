"""A refusal inside `try` (session 44): a `raise`, a failed `assert` or a table lookup a config
point fails is Python raising a known class. Before, any `try` with handlers turned it into
"exception may be caught", every name the block set undecided: a format looked up with
`try: FORMATS[name] except KeyError: raise ValueError(...)` left the whole pool unresolved at
the sampled name instead of refusing that point and trying the table's keys (probe51/r08).
Handlers naming builtin exception classes are decided as Python decides them where that
decides the point: none catches it, or the one that does raises again. A handler that falls
back leaves it undecided as before, and so does a class of the audited tree (its bases could
make it anything)."""

from __future__ import annotations

import pytest
from helpers import assert_unknown, evaluate

from auditor.interpret.control import Infeasible

_PRELUDE = """
    class OwnError(Exception):
        pass

    TABLE = {"fp8": 1, "bf16": 2}

    def caught_by_a_base():
        try:
            raise KeyError("a")
        except (ValueError, LookupError) as error:
            v = 3
        return v

    def caught_bare():
        try:
            assert 1 == 2
        except:
            v = 4
        return v

    def not_caught():
        try:
            raise KeyError("a")
        except ValueError:
            v = 1
        return v

    def raised_again():
        try:
            raise KeyError("a")
        except KeyError:
            raise ValueError("unsupported")

    def handler_of_own_class():
        try:
            raise KeyError("a")
        except OwnError:
            v = 1
        return v

    def raising_own_class():
        try:
            raise OwnError("a")
        except ValueError:
            v = 1
        return v

    def else_not_run():
        v = 0
        try:
            raise RuntimeError("x")
        except Exception:
            v = v + 5
        else:
            v = 100
        return v
"""


@pytest.mark.parametrize("call", ["caught_by_a_base()", "caught_bare()", "else_not_run()"])
def test_a_handler_that_falls_back_leaves_it_undecided(tmp_path, call):
    # the refusal may be of a sample standing for a text (`FORMATS[96]`): taking the fallback
    # would hide the table's own values, which the refusal has tried next (review 44)
    assert_unknown(evaluate(tmp_path, call, _PRELUDE), "exception may be caught")


@pytest.mark.parametrize(
    "call, words", [("not_caught()", "KeyError"), ("raised_again()", "unsupported")]
)
def test_a_refusal_no_handler_catches_or_the_handler_raises_again_refuses(tmp_path, call, words):
    with pytest.raises(Infeasible, match=words):
        evaluate(tmp_path, call, _PRELUDE)


@pytest.mark.parametrize("call", ["handler_of_own_class()", "raising_own_class()"])
def test_a_class_of_the_tree_leaves_it_undecided(tmp_path, call):
    assert_unknown(evaluate(tmp_path, call, _PRELUDE), "exception may be caught")
