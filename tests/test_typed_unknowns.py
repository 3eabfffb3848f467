"""What the audit decides on an Unknown reads its kind (`why`, `cause`), never its words.

The words are for people and may say anything (a raise message can quote "outside the audited
tree"); the decisions here pass over a machine check, follow a factory's choice, and mark a pool
as possibly incomplete from the typed fields only.
"""

from __future__ import annotations

import json

import pytest
from helpers import build, build_index, find_class

from auditor.evaluation.evaluate import Evaluation, PointResult, undecided_raises
from auditor.evaluation.site_run import never_built, other_host
from auditor.incremental.cache import InvalidEntry, dump, load
from auditor.interpret.control import Infeasible
from auditor.interpret.values import Instance, Unknown, Why
from auditor.location import Location

HERE = Location("pool.py", 3, 4)


def test_equality_is_the_words_and_the_place_and_kinds_follow_causes():
    outside = Unknown("call to psutil.virtual_memory() (outside the audited tree)", HERE)
    outside = Unknown(outside.reason, HERE, Why.OUTSIDE_CALL, detail="psutil.virtual_memory")
    wrapped = Unknown("may raise on a path that could not be decided", HERE, Why.UNDECIDED, outside)
    assert wrapped.caused_by(Why.UNDECIDED) and wrapped.caused_by(Why.OUTSIDE_CALL)
    assert not wrapped.caused_by(Why.LIMIT)
    # the same words at the same place are one item of a report, whatever their kind
    assert Unknown("x", HERE) == Unknown("x", HERE, Why.LIMIT, outside)
    assert len({Unknown("x", HERE), Unknown("x", HERE, Why.UNDECIDED)}) == 1


def _host(index, *may_raise: Unknown) -> Instance:
    instance = Instance(find_class(index, "Host"))
    instance.may_raise.extend(may_raise)
    return instance


def test_a_raise_is_passed_over_when_a_call_outside_decides_it_not_when_words_say_so(tmp_path):
    index = build_index(tmp_path, {"pool.py": "class Host:\n    pass\n"})
    machine = Unknown("call to psutil.virtual_memory()", HERE, Why.OUTSIDE_CALL)
    by_machine = Unknown("may raise: memory check", HERE, Why.UNDECIDED, machine)
    # a raise whose words quote the phrase, but that an argument of the caller decides
    quoted = Unknown("may raise: 'x (outside the audited tree)' != y", HERE, Why.UNDECIDED)
    kept = undecided_raises(_host(index, by_machine, quoted))
    assert len(kept) == 1 and "'x (outside the audited tree)' != y" in kept[0]


def test_a_factory_choice_is_read_from_the_refusal_not_its_words(tmp_path):
    index = build_index(tmp_path, {"pool.py": "class Host:\n    pass\nclass Other:\n    pass\n"})
    host, other = find_class(index, "Host"), find_class(index, "Other")
    chosen = other_host("build", other, host)
    assert chosen.chosen == "build() builds Other"
    assert chosen.reason == "build() builds Other at this point, not Host"

    def evaluation(refusal: Infeasible) -> Evaluation:
        return Evaluation(host, host, [PointResult({}, infeasible=refusal)], [], False)

    assert never_built(evaluation(chosen))
    # the same words from a `raise` of the audited code: a refusal, not a factory's choice
    assert not never_built(evaluation(Infeasible(chosen.reason, HERE)))


def test_kinds_and_choices_survive_the_cache():
    cause = Unknown("call to f() (outside the audited tree)", HERE, Why.OUTSIDE_CALL, detail="f")
    value = [
        Unknown("set on a path that could not be decided", HERE, Why.UNDECIDED, cause),
        Infeasible("g() builds A at this point, not B", HERE, "g() builds A"),
    ]
    loaded = load(json.loads(json.dumps(dump(value))))
    assert loaded[0] == value[0] and loaded[0].why is Why.UNDECIDED
    assert loaded[0].cause.why is Why.OUTSIDE_CALL and loaded[0].cause.detail == "f"
    assert loaded[0].caused_by(Why.OUTSIDE_CALL)
    assert type(loaded[1]) is Infeasible and loaded[1].chosen == "g() builds A"


@pytest.mark.parametrize(
    "tampered",
    [
        {"$enum": ["auditor.interpret.values:Why", "NO_SUCH_KIND"]},  # not a member
        {"$enum": ["os:Why", "LIMIT"]},  # not the auditor's module
        {"$enum": ["auditor.interpret.values:Unknown", "LIMIT"]},  # not an enum
        {"$enum": ["auditor.nowhere:Why", "LIMIT"]},  # no such module
        {"$enum": ["auditor.interpret.values:Why", 3]},
        {"$infeasible": ["why", None, 7]},  # a choice that is not text
        {"$infeasible": ["why", None]},  # written before choices were stored
        {"$data": "auditor.interpret.values:NoSuchClass", "fields": {}},
        {"$data": "auditor.interpret.values:Why", "fields": {}},  # a type, not a dataclass
    ],
)
def test_a_tampered_kind_or_choice_is_rejected_not_made(tampered):
    with pytest.raises(InvalidEntry):
        load({"classes": [], "value": tampered})


HOST = """
import torch
import psutil

def helper():
    return 1

class Host:
    def __init__(self, capacity):
        if psutil.virtual_memory().available < capacity:
            raise ValueError("not enough host memory")
        if capacity > 4:
            raise ValueError("too big")
        self.k_buffer = torch.empty((capacity, 8), dtype=torch.float16)

class Plain:
    def __init__(self, unknown_fn):
        unknown_fn()
"""


def test_the_interpreter_types_what_it_cannot_follow(tmp_path):
    index = build_index(tmp_path, {"pool.py": HOST})
    unknown_argument = Unknown("an argument the caller passes", HERE)
    built = build(index, "Host", kwargs={"capacity": unknown_argument})
    host = built.instance
    machine, capacity = host.may_raise
    assert machine.why is Why.UNDECIDED and machine.caused_by(Why.OUTSIDE_CALL)
    assert capacity.why is Why.UNDECIDED and not capacity.caused_by(Why.OUTSIDE_CALL)
    assert capacity.cause is unknown_argument
    # calling an unknown value leaves the object possibly incomplete, by kind
    plain = build(index, "Plain", kwargs={"unknown_fn": unknown_argument}).instance
    assert plain.incomplete is not None and plain.incomplete.why is Why.UNRESOLVED_CALL
    assert plain.incomplete.cause is unknown_argument
    assert undecided_raises(host) == [
        f"Host() assumed to accept: {_where_of(capacity)}{capacity.reason}"
    ]


def _where_of(unknown: Unknown) -> str:
    from auditor.evaluation.evaluate import _where

    return _where(unknown)


def test_a_missing_argument_says_its_kind_and_an_unlisted_switch_reads_as_unset(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": (
                "import os\n"
                "class Needs:\n"
                "    def __init__(self, width):\n"
                "        self.width = width\n"
                "        self.mode = os.environ.get('KV_MODE_UNLISTED')\n"
            )
        },
    )
    built = build(index, "Needs")
    width, mode = built.instance.attrs["width"], built.instance.attrs["mode"]
    assert width.why is Why.MISSING_ARGUMENT and width.detail == "width"
    # a variable the pack lists no value for: unset, the code's default, noted on the point
    assert mode is None and built.point.unset == ["KV_MODE_UNLISTED"]
