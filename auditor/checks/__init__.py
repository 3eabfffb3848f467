"""Checks: each module holds one code, its explanation, and the function that emits it."""

from auditor.checks import la001_buffer_size_mismatch

CHECKS = {la001_buffer_size_mismatch.CODE: la001_buffer_size_mismatch}
