"""Opt-in: audit real SGLang releases from PyPI (`python -m pytest -m corpus`; needs network)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytestmark = pytest.mark.corpus

RUNNER = Path(__file__).resolve().parent.parent / "bench" / "corpus.py"


def _runner():
    spec = importlib.util.spec_from_file_location("corpus_runner", RUNNER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("version", ["0.4.6.post5", "0.5.1", "0.5.10", "0.5.23"])
def test_release_is_audited_without_errors(version: str) -> None:
    runner = _runner()
    summary = runner.measure(runner.fetch(version))
    assert summary["files"] > 100
    assert summary["device_pools"] > 0 and summary["pairs"] > 0
    assert summary["buffers"] > 0
