"""Every test's cache goes to a temporary folder of its own, never into the repository or its
fixtures (the variable is inherited by the audits tests run in child processes). One folder per
test, as each test's own tree had before: a cache shared across tests would let one test's
stored result answer another's tree laid out at the same relative paths."""

from __future__ import annotations

import os

import pytest

from auditor.incremental.cache import CACHE_ROOT_ENV


@pytest.fixture(autouse=True)
def cache_out_of_the_tree(tmp_path_factory):
    previous = os.environ.get(CACHE_ROOT_ENV)
    os.environ[CACHE_ROOT_ENV] = str(tmp_path_factory.mktemp("cache-root"))
    yield
    if previous is None:
        os.environ.pop(CACHE_ROOT_ENV, None)
    else:
        os.environ[CACHE_ROOT_ENV] = previous


@pytest.fixture(autouse=True)
def one_process_unless_asked(monkeypatch):
    """In-process runs of the command evaluate in this process unless a test passes `--jobs`:
    tests count and patch what the evaluations call here, which a forked worker would do out
    of their sight (and only where torch is not loaded yet, so it would depend on test order).
    tests/test_forked.py and tests/test_workers.py ask for workers; audits in child processes
    keep the real default."""
    import auditor.frontend.workers

    monkeypatch.setattr(auditor.frontend.workers, "default_jobs", lambda: 1)
