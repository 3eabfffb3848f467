"""Token counts carried side by side: one build stands for the builds at several token counts.

A config point is measured from builds at two layer counts and two or three token counts
(measure.py). Builds at one layer count differ only in the token count, so one build carries it
as `TokenLanes`: the count of each build, side by side. Arithmetic runs lane by lane, so every size
holds, in lane i, the value the build at count i would compute; a library call or a tensor
method given lanes runs once per lane (`per_lane`) and its results are put side by side again.

Wherever those builds would part, the lanes build stops with `Diverged` and the point is built
one count at a time as before: a branch, a loop, an index or a hash that the lanes do not agree
on, a value turned into text, a type test the interpreter would answer otherwise. So a lanes
build that finishes is exact by construction: `lane_view(value, i)` is what build i would hold.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from auditor.interpret import values as _values
from auditor.interpret.values import Diverged, Instance, Tensor, Unknown

# points built as lanes, and points whose lanes diverged (bench/speed.py prints them)
LANES_STATS = {"lanes": 0, "diverged": 0}


class StateChanged(Diverged):
    """A lanes build changed module state the builds share (Watch): the code that builds
    this pool does so at every point, so its later points are built one by one at once."""


def _diverge(*_: Any) -> Any:
    raise Diverged


def lanes_of(items: list | tuple) -> Any:
    """One value for the lanes: the value itself when every lane holds it (same type too)."""
    first = items[0]
    kind = type(first)
    if all(type(item) is kind and item == first for item in items[1:]):
        return first
    return TokenLanes(tuple(items))


def _truth(items: Any) -> bool:
    verdicts = {bool(item) for item in items}
    if len(verdicts) != 1:
        raise Diverged
    return verdicts.pop()


class TokenLanes:
    """A number (or a text made of one) that differs between the builds a lanes build stands
    for, one per lane.

    Arithmetic gives lanes; comparisons and truth give a plain bool when every lane agrees and
    diverge otherwise; anything else (text, hashing, indexing, iterating) diverges."""

    __slots__ = ("items",)

    def __init__(self, items: tuple) -> None:
        self.items = items

    def _map(self, other: Any, function: Callable[[Any, Any], Any]) -> Any:
        if isinstance(other, TokenLanes):
            if len(other.items) != len(self.items):
                raise Diverged
            return lanes_of([function(a, b) for a, b in zip(self.items, other.items)])
        if not isinstance(other, (int, float)):
            return NotImplemented
        return lanes_of([function(a, other) for a in self.items])

    def _rmap(self, other: Any, function: Callable[[Any, Any], Any]) -> Any:
        if not isinstance(other, (int, float)):
            return NotImplemented
        return lanes_of([function(other, a) for a in self.items])

    def __add__(self, other):
        return self._map(other, operator.add)

    def __radd__(self, other):
        return self._rmap(other, operator.add)

    def __sub__(self, other):
        return self._map(other, operator.sub)

    def __rsub__(self, other):
        return self._rmap(other, operator.sub)

    def __mul__(self, other):
        return self._map(other, operator.mul)

    def __rmul__(self, other):
        return self._rmap(other, operator.mul)

    def __floordiv__(self, other):
        return self._map(other, operator.floordiv)

    def __rfloordiv__(self, other):
        return self._rmap(other, operator.floordiv)

    def __truediv__(self, other):
        return self._map(other, operator.truediv)

    def __rtruediv__(self, other):
        return self._rmap(other, operator.truediv)

    def __mod__(self, other):
        return self._map(other, operator.mod)

    def __rmod__(self, other):
        return self._rmap(other, operator.mod)

    def __neg__(self):
        return lanes_of([-a for a in self.items])

    def __pos__(self):
        return self

    def __abs__(self):
        return lanes_of([abs(a) for a in self.items])

    def _compare(self, other: Any, function: Callable[[Any, Any], Any]) -> bool:
        if isinstance(other, TokenLanes):
            if len(other.items) != len(self.items):
                raise Diverged
            return _truth([function(a, b) for a, b in zip(self.items, other.items)])
        return _truth([function(a, other) for a in self.items])

    def __eq__(self, other):  # type: ignore[override]
        return self._compare(other, operator.eq)

    def __ne__(self, other):  # type: ignore[override]
        return self._compare(other, operator.ne)

    def __lt__(self, other):
        return self._compare(other, operator.lt)

    def __le__(self, other):
        return self._compare(other, operator.le)

    def __gt__(self, other):
        return self._compare(other, operator.gt)

    def __ge__(self, other):
        return self._compare(other, operator.ge)

    def __bool__(self) -> bool:
        return _truth(self.items)

    # the builds would part, or the interpreter would take the value for something else
    __hash__ = _diverge  # type: ignore[assignment]
    __index__ = __int__ = __float__ = __len__ = __iter__ = _diverge
    __str__ = __repr__ = __format__ = _diverge  # type: ignore[assignment]
    __pow__ = __rpow__ = __lshift__ = __rshift__ = __and__ = __or__ = __xor__ = _diverge
    __invert__ = __round__ = __trunc__ = __floor__ = __ceil__ = _diverge

    def __getattr__(self, name: str) -> Any:
        raise Diverged


def refuse(value: Any) -> None:
    """Where the interpreter is about to say it does not model a value: for lanes, each
    build would have said something else (or nothing), so the lanes build diverges."""
    if type(value) is TokenLanes:
        raise Diverged


def inverted(value: TokenLanes) -> Any:
    """`~count`, lane by lane (ints only, as for a plain value)."""
    if not all(type(v) is int for v in value.items):
        raise Diverged
    return lanes_of([~v for v in value.items])


def has_lanes(value: Any, depth: int = 0) -> bool:
    """Whether a value holds lanes where a call or a view would read them (not in instances)."""
    kind = type(value)
    if kind is TokenLanes:
        return True
    if kind is Tensor:
        return type(value.nbytes) is TokenLanes or any(type(d) is TokenLanes for d in value.shape)
    if depth > 8:
        return False
    if kind in (tuple, list):
        return any(has_lanes(item, depth + 1) for item in value)
    if kind is dict:
        return any(has_lanes(item, depth + 1) for item in value.values())
    if kind is slice:
        return any(type(p) is TokenLanes for p in (value.start, value.stop, value.step))
    return False


def count(value: Any, depth: int = 0) -> int | None:
    """How many lanes a value holds (the first lanes found)."""
    kind = type(value)
    if kind is TokenLanes:
        return len(value.items)
    if kind is Tensor:
        return next((count(d) for d in (*value.shape, value.nbytes) if type(d) is TokenLanes), None)
    if depth > 8:
        return None
    items: Any = ()
    if kind in (tuple, list):
        items = value
    elif kind is dict:
        items = value.values()
    elif kind is slice:
        items = (value.start, value.stop, value.step)
    for item in items:
        found = count(item, depth + 1)
        if found is not None:
            return found
    return None


def lane_view(value: Any, lane: int, memo: dict | None = None, instances: bool = False) -> Any:
    """What build `lane` holds where the lanes build holds `value`: containers, slices and
    tensors holding lanes are rebuilt (a tensor keeps its identity); with `instances`, built
    pools too (for measuring), each once, so one pool referring to another still does."""
    kind = type(value)
    if kind is TokenLanes:
        return value.items[lane]
    if kind in (int, float, bool, str, type(None)):
        return value
    if memo is None:
        memo = {}
    key = id(value)
    if key in memo:
        return memo[key][1]
    if kind is Tensor:
        if not has_lanes(value):
            return value
        result: Any = replace(
            value,
            shape=tuple(lane_view(d, lane) for d in value.shape),
            nbytes=lane_view(value.nbytes, lane),
        )
    elif kind in (tuple, list):
        items = [lane_view(item, lane, memo, instances) for item in value]
        same = all(a is b for a, b in zip(items, value))
        result = value if same else kind(items)
    elif kind is dict:
        mapped = {k: lane_view(v, lane, memo, instances) for k, v in value.items()}
        same = all(mapped[k] is v for k, v in value.items())
        result = value if same else mapped
    elif kind is slice:
        result = slice(*(lane_view(p, lane) for p in (value.start, value.stop, value.step)))
    elif kind is Instance and instances:
        result = Instance(value.cls, {}, value.incomplete, value.may_raise, value.set_sites)
        result.given = value.given  # (numbers only: the same in every lane)
        memo[key] = (value, result)
        result.attrs.update(
            (name, lane_view(v, lane, memo, instances)) for name, v in value.attrs.items()
        )
        return result
    else:
        return value
    memo[key] = (value, result)
    return result


def combine(results: list, views: list[dict] | None = None) -> Any:
    """The results of one call run per lane, side by side again; diverges where they differ
    other than in numbers (a different kind, length, dtype, text, object or Unknown). `views`:
    per lane, the lane views given to the call (id of a view -> the value it stands for), so a
    call giving back what it was given (`t.contiguous()`, the lists `enumerate` pairs) gives
    back the very value, as each build's call would."""
    first = results[0]
    if views is not None:
        given = [lane.get(id(r)) for lane, r in zip(views, results)]
        if given[0] is not None and all(g is given[0] for g in given[1:]):
            return given[0]
    kind = type(first)
    if any(type(r) is not kind for r in results[1:]):
        if all(isinstance(r, (int, float)) and not isinstance(r, bool) for r in results):
            return TokenLanes(tuple(results))
        raise Diverged
    if kind in (int, float, str):  # numbers, and texts made of them (an f-string's)
        return lanes_of(results)
    if kind is TokenLanes:
        raise Diverged  # lanes inside a lane: not made by a lane's own call
    if kind is Tensor:
        fixed = _tensor_fixed(first)
        if any(_tensor_fixed(r) != fixed for r in results[1:]):
            raise Diverged
        shape = tuple(lanes_of([r.shape[i] for r in results]) for i in range(len(first.shape)))
        return replace(first, shape=shape, nbytes=lanes_of([r.nbytes for r in results]))
    if kind in (tuple, list):
        if any(len(r) != len(first) for r in results[1:]):
            raise Diverged
        if all(r is first for r in results[1:]):
            return first
        return kind(combine([r[i] for r in results], views) for i in range(len(first)))
    if kind is dict:
        if any(r.keys() != first.keys() for r in results[1:]):
            raise Diverged
        return {k: combine([r[k] for r in results], views) for k in first}
    if isinstance(first, Unknown):
        if any(r != first for r in results[1:]):
            raise Diverged
        return first
    if all(r is first or _same(r, first) for r in results[1:]):
        return first
    raise Diverged


def _tensor_fixed(tensor: Tensor) -> tuple:
    """What lanes of one tensor must agree on: all but its sizes (and its identity, new in
    each lane's call)."""
    return (
        tensor.dtype,
        tensor.site,
        tensor.dims_text,
        tensor.trace,
        tensor.view_of,
        tensor.device,
        tensor.metadata,
        len(tensor.shape),
    )


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - a value without equality: not the same
        return False


def joined(pieces: list) -> Any:
    """An f-string some of whose values are lanes: each build's text (a log line names its
    token count), as lanes; turned into text or a key anywhere, they diverge."""
    width = next(len(p.items) for p in pieces if type(p) is TokenLanes)
    return lanes_of(
        [
            "".join(str(p.items[lane]) if type(p) is TokenLanes else p for p in pieces)
            for lane in range(width)
        ]
    )


def per_lane(
    function: Callable[[list, dict], Any],
    args: list,
    kwargs: dict,
    steps: Callable[[], int] | None = None,
) -> Any:
    """`function(args, kwargs)` once per lane, with each lane's values, put side by side.
    `steps`: the interpreter's step count; a call that ran audited code (a property behind
    `getattr`) would run it once per lane, not once: the lanes build diverges."""
    lanes = count((args, kwargs))
    if lanes is None:
        return function(args, kwargs)
    results = []
    views: list[dict] = []
    before = steps() if steps is not None else 0
    for lane in range(lanes):
        memo: dict = {}
        results.append(function(lane_view(list(args), lane, memo), lane_view(kwargs, lane, memo)))
        views.append({id(view): value for value, view in memo.values() if view is not value})
    if steps is not None and steps() != before:
        raise Diverged
    return combine(results, views)


def over_limit(value: TokenLanes, bits: int) -> bool:
    """Whether any lane is an integer over the interpreter's bound (`bounded`)."""
    return any(
        isinstance(v, int) and not isinstance(v, bool) and v.bit_length() > bits
        for v in value.items
    )


def nan(value: TokenLanes) -> bool:
    return any(isinstance(v, float) and math.isnan(v) for v in value.items)


class Active:
    """While a lanes build runs: an Unknown naming a lanes value in its words (`arithmetic on
    TokenLanes and ...`) means the interpreter took lanes for something it does not model, where
    each build would have said something else: the build diverges (values.Unknown checks)."""

    def __enter__(self) -> Active:
        _values.LANES_ACTIVE[0] += 1
        return self

    def __exit__(self, *_: Any) -> None:
        _values.LANES_ACTIVE[0] -= 1


class Watch:
    """Module and class state a lanes build must leave as it found it.

    The builds of a point share their module state (machine.ModuleState): a build that
    appends to a module-level list, or rebinds a global, is seen by the builds after it, and
    a lanes build stands for several of those at once. Each module-level value forced during
    a lanes build is noted with a print of its contents; if any has changed when the build
    ends (`check`), the builds would have seen different states: the lanes build diverges."""

    def __init__(self, deferred: tuple[type, ...] | frozenset) -> None:
        self.deferred = deferred  # bindings forcing replaces (assignment thunks, imports)
        self.noted: list[tuple[dict, str, Any, Any]] = []
        self.declared: list[tuple[dict, dict]] = []
        self.started = False

    def start(self, state: Any) -> None:
        """Note the module state as the builds before the first lanes build left it (once)."""
        if self.started:
            return
        self.started = True  # the builds one by one before it are what they are
        for namespace in (*state.module_namespaces.values(), *state.class_namespaces.values()):
            self.namespace(namespace)
            for name, value in namespace.items():
                if type(value) not in self.deferred:
                    self.note(namespace, name, value)

    def namespace(self, namespace: dict) -> None:
        """A namespace just declared: its bindings (once the lanes builds have started)."""
        if self.started:
            self.declared.append((namespace, dict(namespace)))

    def note(self, namespace: dict, name: str, value: Any) -> None:
        """A binding just forced: its value, and what that holds."""
        if self.started:
            self.noted.append((namespace, name, value, _print(value, 0)))

    def release(self) -> None:
        """Forget what was noted: it refers to the whole module state of the point (and the
        command line runs with the cycle collector off)."""
        self.noted.clear()
        self.declared.clear()

    def check(self) -> None:
        for namespace, names in self.declared:
            for name, value in namespace.items():
                old = names.get(name, _MISSING)
                if old is not value and (old is _MISSING or type(old) not in self.deferred):
                    raise StateChanged  # bound or rebound by a build
        for namespace, name, value, printed in self.noted:
            if namespace.get(name) is not value or _print(value, 0) != printed:
                raise StateChanged


_MISSING = object()


def _print(value: Any, depth: int) -> Any:
    """What a mutable value holds, by identity, a few levels deep (Watch)."""
    kind = type(value)
    if depth > 3:
        return id(value)
    if kind in (list, tuple):
        return (kind, id(value), tuple(_print(v, depth + 1) for v in value))
    if isinstance(value, dict):
        return (kind, id(value), tuple((k, _print(v, depth + 1)) for k, v in value.items()))
    if kind is set:
        return (kind, id(value), len(value))
    if kind is Instance:
        return (kind, id(value), tuple((k, _print(v, depth + 1)) for k, v in value.attrs.items()))
    return id(value)
