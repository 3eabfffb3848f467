"""Checks: one module per code, each holding a `Check` subclass (base.py) with its explanation.

Checks are found by walking this package: a new check is a new module, nothing to register;
its name starts with its code (`la001_buffer_size_mismatch.py` holds LA001), so the codes are
known without importing the checks (a run without pools never loads them).
`run_checks` runs the selected ones by scope: pair and device checks over the evaluations,
then the suppression comments are applied, then the checks judging the comments (LA100).
"""

from __future__ import annotations

import functools
import importlib
import inspect
import pkgutil
import re

from auditor.checks.base import Check, CheckContext, Scope
from auditor.checks.findings import Finding
from auditor.checks.suppressions import SuppressionIndex
from auditor.settings import ConfigError, Settings

__all__ = ["Check", "CheckContext", "Scope", "checks", "codes", "run_checks", "selected"]

_CHECK_MODULE = re.compile(r"([a-z]+[0-9]+)_")  # la001_buffer_size_mismatch: LA001


@functools.cache
def codes() -> tuple[str, ...]:
    """Every check's code, in code order, from the modules' names alone."""
    found = (_CHECK_MODULE.match(info.name) for info in pkgutil.iter_modules(__path__))
    return tuple(sorted(match.group(1).upper() for match in found if match))


@functools.cache
def checks() -> dict[str, Check]:
    """Every check of this package by code, in code order."""
    found: dict[str, Check] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, Check) and cls.__module__ == module.__name__ and cls.code:
                found[cls.code] = cls()
    return dict(sorted(found.items()))


def selected(settings: Settings) -> list[str]:
    """The codes this run reports; a code the configuration names that no check has is a
    ConfigError naming where it was written."""
    known = codes()
    for key in ("select", "ignore"):
        for code in getattr(settings, key) or []:
            if code not in known:
                raise ConfigError(
                    f"{settings.codes_from}: {key}: unknown code {code!r} "
                    f"(known: {', '.join(known)})"
                )
    select = settings.select if settings.select is not None else list(known)
    return [code for code in select if code not in settings.ignore]


def run_checks(context: CheckContext, suppressions: SuppressionIndex) -> list[Finding]:
    """Findings of the selected checks; silenced ones go to `context.suppressed`."""
    codes = context.selected = selected(context.settings)
    judged = [checks()[c] for c in codes if checks()[c].scope is not Scope.SUPPRESSIONS]
    findings = [finding for check in judged for finding in check.run(context)]
    kept = []
    for finding in findings:
        location = finding.location
        if suppressions.silences(finding.code, location.path, location.line):
            context.suppressed.append(finding)
        else:
            kept.append(finding)
    context.suppressions = suppressions
    after = [checks()[c] for c in codes if checks()[c].scope is Scope.SUPPRESSIONS]
    kept.extend(finding for check in after for finding in check.run(context))
    return kept
