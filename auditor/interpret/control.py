"""Signals the interpreter raises to unwind: infeasible config points, budgets, control flow."""

from __future__ import annotations

from typing import Any

from auditor.location import Location


class Infeasible(Exception):  # noqa: N818 - a signal, not an error
    """An `assert` or `raise` decided at this config point: the point can never be built.

    `chosen` is set when the point is infeasible for a pair because the code builds another
    host class there (a factory's choice, worded "f() builds X"): such a pair may never be
    built at all, which pairing reads from this field, not from the words."""

    def __init__(
        self,
        reason: str,
        location: Location | None,
        chosen: str | None = None,
        raised: str | None = None,
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.location = location
        self.chosen = chosen
        # the exception class Python would raise there (`KeyError`), when the code names one:
        # a `try` whose handlers do not catch it does not stop the refusal (statements.py)
        self.raised = raised

    def plain(self) -> Infeasible:
        """The same refusal as the plain signal (what the cache stores)."""
        return Infeasible(self.reason, self.location, self.chosen, self.raised)


class BudgetExceeded(Exception):  # noqa: N818
    """The pool build used up its step budget; everything it would produce is Unknown."""

    def __init__(self, reason: str, location: Location | None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.location = location


class ReturnSignal(Exception):  # noqa: N818
    def __init__(self, value: Any) -> None:
        self.value = value


class BreakSignal(Exception):  # noqa: N818
    pass


class ContinueSignal(Exception):  # noqa: N818
    pass


class SiteReached(BaseException):  # noqa: N818 - a signal no handler of the interpreter catches
    """A run of the function holding a construction site arrived at its call (site_run.py):
    the callee and the arguments the code computed for it."""

    def __init__(self, func: Any, args: list, kwargs: dict, sources: dict, opened=None) -> None:
        super().__init__("site reached")
        self.func, self.args, self.kwargs, self.sources = func, args, kwargs, sources
        self.opened = opened  # an unknown `**x` / `*x`: any other parameter may be passed
