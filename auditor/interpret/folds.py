"""Folds and iterator builders of the standard library (`functools.reduce`, `itertools.chain`,
`accumulate`, `islice`, `product`, `operator.mul`...), modelled as the values they give.

Pools size rows with `reduce(operator.mul, shape, 1)` and place views at
`itertools.accumulate(sizes)` offsets; unmodelled, every figure behind them was unknown. Each
function here runs on items known whole (a function given to it is called through the
interpreter, as `map` calls it), keeps to the interpreter's length bounds, and gives an
iterator as the items it yields (OneShot): indexing or measuring it stays unknown, as Python
refuses it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import libcst as cst

from auditor.interpret.iteration import items_of
from auditor.interpret.values import OneShot, Unknown, is_unknown

if TYPE_CHECKING:
    from auditor.interpret.library import CallContext


def _items(value: Any, ctx: CallContext, what: str) -> list | Unknown:
    """The items iterating `value` yields, where the interpreter knows them all."""
    items = items_of(ctx.interpreter, value, ctx.location)
    if items is None:  # (a sequence known only in part is not folded by its head)
        return ctx.unknown(f"{what} of a value the interpreter does not model")
    return items if is_unknown(items) else list(items)


def _within(count: int, ctx: CallContext, what: str) -> Unknown | None:
    limit = ctx.interpreter.limits.max_sequence_length
    if count > limit:
        return ctx.unknown(f"{what} of {count} items, over the limit of {limit}")
    return None


def _reduce(args: list, kwargs: dict, ctx: CallContext):
    """`functools.reduce(f, items[, initial])`: f called on the running value and each item."""
    if kwargs or len(args) not in (2, 3):
        return ctx.unknown("functools.reduce() takes a function, an iterable and an initial")
    items = _items(args[1], ctx, "functools.reduce()")
    if is_unknown(items):
        return items
    if len(args) == 3:
        value = args[2]
    elif items:
        value, items = items[0], items[1:]
    else:  # Python raises TypeError: no value to give
        return ctx.unknown("functools.reduce() of an empty sequence with no initial value")
    for item in items:
        if is_unknown(value):
            return value
        value = ctx.interpreter.call(args[0], [value, item], {}, ctx.location)
    return value


def _accumulate(args: list, kwargs: dict, ctx: CallContext):
    """`itertools.accumulate(items[, func], initial=None)`: the running sums (or folds)."""
    if not args or len(args) > 2 or set(kwargs) - {"func", "initial"}:
        return ctx.unknown("itertools.accumulate() takes an iterable, a function, an initial")
    func = args[1] if len(args) == 2 else kwargs.get("func")
    items = _items(args[0], ctx, "itertools.accumulate()")
    if is_unknown(items):
        return items
    out = [kwargs["initial"]] if kwargs.get("initial") is not None else []
    for item in items:
        if not out:
            out.append(item)
            continue
        last = out[-1]
        if is_unknown(last):
            return last
        if func is None:
            out.append(ctx.interpreter.binary(cst.Add, last, item, ctx.location))
        else:
            out.append(ctx.interpreter.call(func, [last, item], {}, ctx.location))
    return _given(out, ctx)


def _given(out: list, ctx: CallContext):
    for value in out:
        if is_unknown(value):
            return value
    return OneShot(out)


def _chain(args: list, kwargs: dict, ctx: CallContext):
    """`itertools.chain(a, b, ...)`: the items of each in turn."""
    if kwargs:
        return ctx.unknown("itertools.chain() takes no keyword arguments")
    return _chained(args, ctx, "itertools.chain()")


def _chain_from_iterable(args: list, kwargs: dict, ctx: CallContext):
    """`itertools.chain.from_iterable(groups)`: the items of each group in turn."""
    if kwargs or len(args) != 1:
        return ctx.unknown("itertools.chain.from_iterable() takes one iterable")
    groups = _items(args[0], ctx, "itertools.chain.from_iterable()")
    if is_unknown(groups):
        return groups
    return _chained(groups, ctx, "itertools.chain.from_iterable()")


def _chained(groups: list, ctx: CallContext, what: str):
    out: list = []
    for group in groups:
        items = _items(group, ctx, what)
        if is_unknown(items):
            return items
        out.extend(items)
        too_many = _within(len(out), ctx, what)
        if too_many is not None:
            return too_many
    return OneShot(out)


def _islice(args: list, kwargs: dict, ctx: CallContext):
    """`itertools.islice(items, stop)` / `(items, start, stop[, step])` of known ints."""
    if kwargs or not 2 <= len(args) <= 4:
        return ctx.unknown("itertools.islice() takes an iterable and up to three bounds")
    for bound in args[1:]:
        if is_unknown(bound):
            return bound
        if bound is not None and (not isinstance(bound, int) or isinstance(bound, bool)):
            return ctx.unknown("itertools.islice() with a bound that is not an int")
    items = _items(args[0], ctx, "itertools.islice()")
    if is_unknown(items):
        return items
    try:
        return OneShot(itertools.islice(items, *args[1:]))
    except ValueError as error:  # (Python raises it too: a negative bound)
        return ctx.unknown(f"itertools.islice(): {error}")


def _product(args: list, kwargs: dict, ctx: CallContext):
    """`itertools.product(a, b, ..., repeat=1)`: every combination, as tuples."""
    if set(kwargs) - {"repeat"}:
        return ctx.unknown("itertools.product() with keyword arguments other than repeat")
    repeat = kwargs.get("repeat", 1)
    if is_unknown(repeat):
        return repeat
    if not isinstance(repeat, int) or isinstance(repeat, bool) or repeat < 0:
        return ctx.unknown("itertools.product() with a repeat that is not a count")
    pools = []
    for given in args:
        items = _items(given, ctx, "itertools.product()")
        if is_unknown(items):
            return items
        pools.append(items)
    count = math.prod(len(p) for p in pools) ** repeat if pools else 1
    too_many = _within(count, ctx, "itertools.product()")
    if too_many is not None:
        return too_many
    return OneShot(itertools.product(*pools, repeat=repeat))


def _binary(op_type: type, name: str) -> Callable:
    """`operator.mul(a, b)` and its kin: the operator itself, with its bounds."""

    def run(args: list, kwargs: dict, ctx: CallContext):
        if kwargs or len(args) != 2:
            return ctx.unknown(f"operator.{name}() takes two arguments")
        return ctx.interpreter.binary(op_type, args[0], args[1], ctx.location)

    return run


def _pow(args: list, kwargs: dict, ctx: CallContext):
    """`pow(a, b)` as `a ** b` (its bounds); `pow(a, b, mod)` of ints."""
    if kwargs or len(args) not in (2, 3):
        return ctx.unknown("pow() takes two or three arguments")
    if len(args) == 2:
        return ctx.interpreter.binary(cst.Power, args[0], args[1], ctx.location)
    for arg in args:
        if is_unknown(arg):
            return arg
    if not all(isinstance(a, int) and not isinstance(a, bool) for a in args):
        return ctx.unknown("pow() with a modulus of values other than ints")
    try:
        return pow(*args)
    except (ValueError, ZeroDivisionError) as error:
        return ctx.unknown(f"pow(): {error}")


_OPERATORS = {
    "add": cst.Add,
    "sub": cst.Subtract,
    "mul": cst.Multiply,
    "floordiv": cst.FloorDivide,
    "truediv": cst.Divide,
    "mod": cst.Modulo,
    "pow": cst.Power,
}

FUNCTIONS: dict[str, Callable] = {
    "functools.reduce": _reduce,
    "itertools.accumulate": _accumulate,
    "itertools.chain": _chain,
    "itertools.chain.from_iterable": _chain_from_iterable,
    "itertools.islice": _islice,
    "itertools.product": _product,
    "builtins.pow": _pow,
    **{f"operator.{name}": _binary(op, name) for name, op in _OPERATORS.items()},
}
