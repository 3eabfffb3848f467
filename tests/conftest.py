"""Every test's cache goes to a temporary folder, never into the repository or its fixtures
(the variable is inherited by the audits tests run in child processes)."""

from __future__ import annotations

import os

import pytest

from auditor.incremental.cache import CACHE_ROOT_ENV


@pytest.fixture(autouse=True, scope="session")
def cache_out_of_the_tree(tmp_path_factory):
    previous = os.environ.get(CACHE_ROOT_ENV)
    os.environ[CACHE_ROOT_ENV] = str(tmp_path_factory.mktemp("cache-root"))
    yield
    if previous is None:
        os.environ.pop(CACHE_ROOT_ENV, None)
    else:
        os.environ[CACHE_ROOT_ENV] = previous
