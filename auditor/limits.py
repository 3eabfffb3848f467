"""Every bound on the interpreter's work, in one place, so no input can hang or exhaust it.

Hitting a limit never guesses: the value becomes Unknown with the limit named as its reason.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    max_steps_per_evaluation: int = 200_000  # expression/statement evaluations per pool build
    max_call_depth: int = 48  # nested calls to audited functions
    max_int_bits: int = 256  # larger integers become Unknown
    max_power_exponent: int = 4096  # a ** b with b above this is Unknown
    max_sequence_length: int = 10_000  # range() / list lengths the interpreter materialises
    max_shape_rank: int = 64  # dimensions in one tensor shape
    max_loop_iterations: int = 10_000  # iterations of one for/while statement
    # items one generator run gives before it is stopped (run whole at its call: a stream
    # with no end, `while True: yield n`, would spend the steps of the whole build)
    max_generator_items: int = 1_024
    max_config_points: int = 4_096  # config points evaluated per pool or pair


DEFAULT_LIMITS = Limits()

# Parsing. libcst's time grows faster than linearly on some huge flat statements (a chain of
# tens of thousands of operators); such a file is reported (E902) instead of being parsed, when
# the audit needs its libcst tree. Measured on CPython's syntax tree: nodes in one simple
# statement (not counting nested blocks). Real engines stay under 1,000 (SGLang 0.5.23: 862).
MAX_STATEMENT_NODES = 25_000
