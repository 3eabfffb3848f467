"""A tree where no file may hold a pool is answered without the stages (pipeline.py): no libcst,
no interpreter, and the very result the stages give on it.

The pre-commit hook hands the changed files to the auditor; most hold no pool, and loading
libcst and the interpreter took most of such a run (issue #17: one file without a pool class).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from helpers import write_tree

import auditor.pipeline
from auditor import engines
from auditor.checks import checks, codes
from auditor.pipeline import audit
from auditor.report import json_report, text
from auditor.settings import load_settings

REPO = Path(__file__).resolve().parent.parent
INCIDENT = REPO / "fixtures" / "incident_buggy"

# Files without a pool class, each in its own way (none a suppression comment or a KV spec).
NO_POOL = {
    "pkg/__init__.py": "",
    "pkg/plain.py": "import os\n\n\ndef join(x):\n    return os.path.join(x, 'a')\n",
    # allocates a tensor sized by a parameter, but counts no layers: not a pool
    "pkg/scratch.py": """
        import torch


        class Scratch:
            def __init__(self, size, dtype: torch.dtype = torch.float16):
                self.buffer = torch.empty(size, dtype=dtype)
    """,
    # a token-count word in names, no layer count, no allocation
    "pkg/names.py": """
        class Config:
            def __init__(self, size, hidden):
                self.size = size
                self.hidden = hidden
    """,
    "pkg/broken.py": "def broken(:\n    pass\n",  # can hold no pool: never checked, either way
    "pkg/spec_words.py": "page_size_bytes = 16  # the word, not a spec class\n",
}


def outputs(result) -> tuple:
    """Everything the reports say of a result (text, JSON), and its counts."""
    import io

    out, err, data = io.StringIO(), io.StringIO(), io.StringIO()
    result.seconds = 0.0
    text.render(result, out, err, show_unresolved=True)
    text.render_pairs(result, out)
    text.notice(result, err)
    json_report.render(result, data, show_pairs=True)
    catalog = result.catalog
    shape = (
        catalog.devices,
        catalog.hosts,
        catalog.pairs,
        catalog.unresolved,
        catalog.sites,
        catalog.not_hosts,
        catalog.unpaired,
        catalog.searched,
        catalog.not_devices,
    )
    counts = (result.files_found, result.files_read, result.files_indexed)
    return out.getvalue(), err.getvalue(), data.getvalue(), shape, counts, result.stages


def count_answers(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list growing by one each time a run is answered without the stages."""
    answered: list[int] = []
    real = auditor.pipeline.nothing_to_audit

    def counted(*args, **kwargs):
        answered.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(auditor.pipeline, "nothing_to_audit", counted)
    return answered


def both_ways(root: Path, monkeypatch: pytest.MonkeyPatch, settings=None) -> tuple:
    """(the run as it is, the run made to go through the stages)."""
    settings = settings or load_settings(None)
    answered = count_answers(monkeypatch)
    quick = audit([root], settings)
    assert answered == [1], "the tree was expected to be answered without the stages"
    with monkeypatch.context() as patched:
        patched.setattr(auditor.pipeline, "may_concern_stages", lambda project, parsed: True)
        staged = audit([root], settings)
    assert answered == [1]
    return quick, staged


def test_a_tree_without_pools_gets_the_result_the_stages_give(tmp_path, monkeypatch):
    root = write_tree(tmp_path / "tree", NO_POOL)
    (root / "pkg" / "gone.py").symlink_to(tmp_path / "missing.py")  # E902: cannot be read
    quick, staged = both_ways(root, monkeypatch)
    assert outputs(quick) == outputs(staged)
    assert [Path(e.path).name for e in quick.errors] == ["gone.py"]
    assert (quick.files_found, quick.files_read) == (6, 6)  # (the link is a problem, not a file)
    assert "no device pool found in 6 files" in quick.coverage.notice


def test_configured_pairs_and_parameters_change_nothing_without_pools(tmp_path, monkeypatch):
    root = write_tree(tmp_path / "tree", NO_POOL)
    (root / "pyproject.toml").write_text(
        "[tool.layout-audit.pairs]\nHostPool = ['DevicePool']\n"
        "[tool.layout-audit.parameters]\ntokens = ['num_tokens']\n"
    )
    settings = load_settings(root / "pyproject.toml")
    quick, staged = both_ways(root, monkeypatch, settings)
    assert outputs(quick) == outputs(staged)


def test_one_file_alone(tmp_path, monkeypatch):
    root = write_tree(tmp_path / "tree", {"plain.py": NO_POOL["pkg/plain.py"]})
    quick, staged = both_ways(root / "plain.py", monkeypatch)
    assert outputs(quick) == outputs(staged)
    assert quick.files_read == 1 and not quick.errors


def ran_stages(root: Path, monkeypatch: pytest.MonkeyPatch):
    """The result, and whether the stages ran for it."""
    answered = count_answers(monkeypatch)
    result = audit([root], load_settings(None))
    return result, not answered


def test_a_suppression_comment_still_goes_through_the_stages(tmp_path, monkeypatch):
    """LA100 judges the comment: an unused one is a finding, even with no pool in the tree."""
    root = write_tree(tmp_path / "tree", {"a.py": "x = 1  # layout-audit: ignore[LA001]\n"})
    result, staged = ran_stages(root, monkeypatch)
    assert staged and [f.code for f in result.findings] == ["LA100"]


def test_a_kv_spec_class_still_goes_through_the_engines_stage(tmp_path, monkeypatch):
    root = write_tree(
        tmp_path / "tree",
        {
            "spec.py": """
                from dataclasses import dataclass


                @dataclass(frozen=True)
                class FullAttentionSpec:
                    block_size: int

                    @property
                    def page_size_bytes(self) -> int:
                        return self.block_size * 2
            """
        },
    )
    result, staged = ran_stages(root, monkeypatch)
    assert staged and [outcome.engine for outcome in result.stages] == ["vllm"]


def test_a_pool_goes_through_the_stages(monkeypatch):
    result, staged = ran_stages(INCIDENT, monkeypatch)
    assert staged and result.findings


IMPORTED = """
import sys
from auditor.cli import main
main(["--isolated", "--no-cache", *sys.argv[1:]])
print(" ".join(sorted(m for m in sys.modules if m.startswith(("libcst", "auditor")))))
"""


def imported(*paths: Path) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", IMPORTED, *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    return set(done.stdout.split())


def test_a_run_without_pools_loads_neither_libcst_nor_the_interpreter(tmp_path):
    root = write_tree(tmp_path / "tree", NO_POOL)
    loaded = imported(root / "pkg" / "plain.py", root / "pkg" / "scratch.py", root)
    assert "libcst" not in loaded
    assert not loaded & {"auditor.stages", "auditor.interpret.machine", "auditor.pairing.catalog"}
    # ... and the check can fail: an audit with a pool loads them
    assert {"libcst", "auditor.stages", "auditor.interpret.machine"} <= imported(INCIDENT)


def test_the_check_codes_are_known_without_importing_the_checks():
    assert codes() == tuple(checks())


def test_registering_the_engines_imports_only_their_own_modules():
    probe = (
        "import sys; from auditor import engines; "
        "print([e.name for e in engines.active()]); "
        "print(sorted(m for m in sys.modules if m.startswith('auditor.engines.')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    names, modules = done.stdout.strip().splitlines()
    assert names == str([e.name for e in engines.active()]) == "['sglang', 'vllm']"
    assert modules == str(
        ["auditor.engines.base", "auditor.engines.sglang", "auditor.engines.vllm"]
    )
