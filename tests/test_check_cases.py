"""Each check's own example trees (`Check.valid` / `Check.invalid`), audited in-process: the
check reports nothing on a valid tree and at least one finding on an invalid one."""

from __future__ import annotations

import pytest
from helpers import write_tree

from auditor.checks import checks
from auditor.pipeline import audit
from auditor.settings import load_settings

CASES = [
    (code, kind, n, tree)
    for code, check in checks().items()
    for kind, trees in (("valid", check.valid), ("invalid", check.invalid))
    for n, tree in enumerate(trees)
]


def test_every_check_has_cases():
    assert {code for code, kind, *_ in CASES if kind == "valid"} == set(checks())
    assert {code for code, kind, *_ in CASES if kind == "invalid"} == set(checks())


@pytest.mark.parametrize(
    ("code", "kind", "n", "tree"), CASES, ids=[f"{c}-{k}-{n}" for c, k, n, _ in CASES]
)
def test_case(tmp_path, code, kind, n, tree):
    settings = load_settings(None)
    found = [f for f in audit([write_tree(tmp_path, tree)], settings).findings if f.code == code]
    if kind == "valid":
        assert found == [], [f.message for f in found]
    else:
        assert found, f"{code} reports nothing on its invalid case {n}"
