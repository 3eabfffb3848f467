"""Worker processes for the per-file check give the in-process answers, in the same order."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import auditor.frontend.workers
from auditor.cli import main
from auditor.frontend.workers import check_all, safe_facts
from auditor.pipeline import audit
from auditor.settings import load_settings

REPO = Path(__file__).resolve().parent.parent


def sample_files() -> list[bytes]:
    """Every fixture file, and a few broken ones, many times over (past the workers' minimum)."""
    datas = [path.read_bytes() for path in sorted((REPO / "fixtures").rglob("*.py"))]
    datas += [b"x = (\n", b"\x00binary", b"class A(B):\n    def __init__(self, layer_num): ...\n"]
    size = sum(map(len, datas))
    return datas * (auditor.frontend.workers.MIN_BYTES_FOR_WORKERS // size + 2)


def test_two_workers_give_the_in_process_facts_in_order():
    datas = sample_files()
    assert sum(map(len, datas)) >= auditor.frontend.workers.MIN_BYTES_FOR_WORKERS
    assert check_all(datas, 2) == check_all(datas, 1) == [safe_facts(d) for d in datas]


def test_same_findings_with_one_and_two_workers(tmp_path, monkeypatch):
    monkeypatch.setattr(auditor.frontend.workers, "MIN_BYTES_FOR_WORKERS", 1)
    for copy in range(3):  # several trees, so the files really are spread over the workers
        shutil.copytree(REPO / "fixtures", tmp_path / f"copy{copy}")
    # a suppression comment makes the pre-filter keep it (prefilter.py)
    (tmp_path / "copy1" / "broken.py").write_bytes(b"def f(:\n# layout-audit reads this\n")
    monkeypatch.chdir(tmp_path)
    settings = load_settings(None)
    results = [audit([tmp_path], settings, jobs=jobs) for jobs in (1, 2)]
    one, two = ([f.as_json() for f in r.findings] for r in results)
    assert one == two and len(one) >= 12
    assert results[0].errors == results[1].errors and results[0].errors
    assert results[0].unresolved == results[1].unresolved


def test_jobs_option(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(REPO / "fixtures" / "incident_buggy", tmp_path / "tree")
    outputs = []
    for jobs in ("1", "2"):
        assert (
            main(["--isolated", "--no-cache", "-j", jobs, "tree", "--output-format", "json"]) == 1
        )
        outputs.append(json.loads(capsys.readouterr().out))
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize("bad", ["0", "-1", "two"])
def test_bad_jobs_is_a_usage_error(bad, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--jobs", bad, "."])
    assert exit_info.value.code == 2
    assert "--jobs" in capsys.readouterr().err


def test_a_crash_in_the_check_is_that_files_error_and_not_cached(monkeypatch):
    def broken(data):
        raise MemoryError("no room")

    monkeypatch.setattr(auditor.frontend.workers, "file_facts", broken)
    facts = safe_facts(b"x = 1\n")
    assert facts["error"][2] == "cannot parse file: MemoryError: no room"
    assert facts["uncached"] is True


def test_no_processes_to_be_had_falls_back_to_this_one(monkeypatch):
    class NoPool:
        def __init__(self, *args, **kwargs):
            raise OSError("no more processes")

    monkeypatch.setattr(auditor.frontend.workers, "ProcessPoolExecutor", NoPool)
    datas = sample_files()
    assert check_all(datas, 2) == [safe_facts(d) for d in datas]
