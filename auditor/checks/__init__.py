"""Checks: each module holds one code, its explanation, and the function that emits it.

Pair checks (`check(evaluation, settings)`) judge one host/device pair; device checks
(`check_device(evaluations, settings)`) judge a device pool across every host paired with it;
LA100 judges the suppression comments left after all others ran.
"""

from auditor.checks import (
    la001_buffer_size_mismatch,
    la002_declared_size_mismatch,
    la003_unmirrored_device_buffer,
    la100_unused_suppression,
    la201_recomputed_page_mismatch,
)

PAIR_CHECKS = {
    la001_buffer_size_mismatch.CODE: la001_buffer_size_mismatch,
    la002_declared_size_mismatch.CODE: la002_declared_size_mismatch,
}
DEVICE_CHECKS = {la003_unmirrored_device_buffer.CODE: la003_unmirrored_device_buffer}
# engine checks run in their engine's stage (auditor/engines/): LA2xx for vLLM
ENGINE_CHECKS = {la201_recomputed_page_mismatch.CODE: la201_recomputed_page_mismatch}
CHECKS = {
    **PAIR_CHECKS,
    **DEVICE_CHECKS,
    la100_unused_suppression.CODE: la100_unused_suppression,
    **ENGINE_CHECKS,
}
