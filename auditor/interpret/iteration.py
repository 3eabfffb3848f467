"""What iterating a value yields: one rule for `for`, comprehensions, `tuple()`/`list()` and
the folds of the standard library, so that a value one of them iterates is not refused by
another (an enum class's members, a dict's keys, a range's numbers)."""

from __future__ import annotations

from typing import Any

from auditor.interpret import enums, lanes
from auditor.interpret.values import ClassRef, PartialSequence, Unknown, is_unknown


def items_of(interpreter, value: Any, location) -> tuple | Unknown | None:
    """The items iterating `value` yields, in order, where the interpreter knows them all;
    the Unknown it is (or an enum class gives); None for a value the interpreter does not
    iterate (each caller words that). A sequence known only in part (PartialSequence) is
    returned as it is: a `for` loop runs its head."""
    if type(value) is ClassRef:  # `for member in KVFormat:` (an enum class: its members)
        value = enums.iterated(interpreter, value, location)
    if isinstance(value, PartialSequence) or is_unknown(value):
        return value
    if isinstance(value, (list, tuple, str, dict, range)):
        return tuple(value)  # (a dict: its keys)
    # not a set (modelled as a frozenset, for membership and `sorted()`): the order Python
    # iterates a set of texts in varies between runs, and one filled by `.add()` is not
    # followed (`add` is unknown, the set as it was)
    lanes.refuse(value)
    return None
