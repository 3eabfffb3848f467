"""Checks: each module holds one code, its explanation, and the function that emits it.

Pair checks (`check(evaluation, settings)`) judge one host/device pair; LA100 judges the
suppression comments left after all others ran.
"""

from auditor.checks import la001_buffer_size_mismatch, la100_unused_suppression

PAIR_CHECKS = {la001_buffer_size_mismatch.CODE: la001_buffer_size_mismatch}
CHECKS = {**PAIR_CHECKS, la100_unused_suppression.CODE: la100_unused_suppression}
