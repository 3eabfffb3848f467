"""What a check is: a class with its code, names, explanation and scope, and `run(context)`.

A check reads evaluations (data), never syntax trees of its own accord, and returns findings
(data); the formats in report/ render them. Model: Fixit's `LintRule`, ruff's rule docs.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from auditor.checks.findings import Finding
from auditor.settings import Settings

if TYPE_CHECKING:
    from auditor.checks.suppressions import SuppressionIndex
    from auditor.engines.base import StageOutcome
    from auditor.evaluation.evaluate import Evaluation
    from auditor.pairing.catalog import Pair


class Scope(enum.Enum):
    """What a check judges, which also says when it runs."""

    PAIRS = "pairs"  # each host/device pair (with every other pair at hand)
    DEVICES = "devices"  # a device pool across every host paired with it
    ENGINES = "engines"  # what an engine's own stage found (CheckContext.stage_outcomes)
    SUPPRESSIONS = "suppressions"  # the suppression comments, after every other check


@dataclass
class CheckContext:
    """Everything a check may read: the evaluated pairs, the pair evaluations (once each, in
    order), the settings, the outcomes of the engines' own stages; `suppressions` once the
    other checks' findings were matched."""

    evaluated: list[tuple[Pair, Evaluation]]
    evaluations: list[Evaluation]
    settings: Settings
    stage_outcomes: list[StageOutcome] = field(default_factory=list)
    selected: list[str] = field(default_factory=list)
    suppressed: list[Finding] = field(default_factory=list)
    suppressions: SuppressionIndex | None = None


# A device pool the checks' example trees share: one per-token buffer in the configured dtype.
EXAMPLE_DEVICE = """
import torch

class Dev:
    def __init__(self, size, layer_num, dtype: torch.dtype):
        self.dtype = dtype
        self.k_buffer = [torch.zeros((size, 64), dtype=dtype) for _ in range(layer_num)]
"""

Tree = dict[str, str]  # relative path: source


class Check:
    """One code. `explanation` has the sections: What it finds / Why it matters / Example /
    Use instead (`--explain CODE`, SARIF rule help). `valid` and `invalid` are small trees the
    check must stay silent on / report (tests/test_check_cases.py audits each in-process)."""

    code: ClassVar[str] = ""
    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    explanation: ClassVar[str] = ""
    scope: ClassVar[Scope] = Scope.PAIRS
    valid: ClassVar[tuple[Tree, ...]] = ()
    invalid: ClassVar[tuple[Tree, ...]] = ()

    def run(self, context: CheckContext) -> Iterable[Finding]:
        raise NotImplementedError
