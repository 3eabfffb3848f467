"""Evaluations in forked workers (auditor/evaluation/forked.py): an audit with two processes
reads exactly as with one, whatever a worker does (fails, dies, holds what cannot be sent).

Each check runs in a fresh interpreter: a worker is forked only where torch is not loaded,
and this test process may have loaded it (the meta-device oracles)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"

SCRIPT = """
import json, os, signal, sys
sys.path[:0] = [{tests!r}, {root!r}]
from pathlib import Path
from helpers import every_report
from auditor.evaluation import forked
from auditor.pipeline import audit
from auditor.settings import load_settings

parsed_sets = []  # the modules the whole result depends on (the cache's read set)
from auditor.incremental.results import ResultStore
real_save = ResultStore.save
def save(self, parsed, result):
    parsed_sets.append(sorted(m.display_path for m in parsed if m.is_parsed))
    return real_save(self, parsed, result)
ResultStore.save = save

forks = []
real_fork = forked._fork
def counting_fork(*args):
    forks.append(1)
    return real_fork(*args)
forked._fork = counting_fork

how = {how!r}
if how == "raises":  # every evaluation fails in the worker: the parent does them all
    from auditor.incremental.evaluations import CachedEvaluations
    real_recorded = CachedEvaluations.recorded
    parent = os.getpid()
    def recorded(self, *args):
        if os.getpid() != parent:
            raise RuntimeError("a worker's evaluation failed")
        return real_recorded(self, *args)
    CachedEvaluations.recorded = recorded
elif how == "dies":  # the worker is killed before it sends anything
    class Dying:
        loads = staticmethod(forked.json.loads)
        @staticmethod
        def dumps(*args, **kwargs):
            os.kill(os.getpid(), signal.SIGKILL)
    forked.json = Dying

elif how == "worker_does_all":  # the parent claims nothing: every evaluation is sent
    real_claims = forked._claims
    parent = os.getpid()
    def claims(counter, groups):
        return iter(()) if os.getpid() == parent else real_claims(counter, groups)
    forked._claims = claims

if how == "cache":  # each way with a cache of its own: a cold run, then one pool file edited
    import shutil, tempfile
    from auditor.incremental.cache import Cache
    out = {{}}
    for jobs in (1, 2):
        work = Path(tempfile.mkdtemp())
        tree = work / "tree"
        shutil.copytree(Path({fixtures!r}) / "zero_config", tree)
        settings = load_settings(None)
        settings.respect_gitignore = False
        cache = Cache(work / "cache")
        cold = every_report(audit([tree], settings, cache=cache, jobs=jobs))
        stored = {{f: (f.stat().st_ino, f.stat().st_mtime_ns) for f in (work / "cache" / "evaluations").glob("*.json")}}
        edited = tree / "renamed_buggy" / "kvstore" / "device.py"
        edited.write_text(edited.read_text() + "\\n# edited\\n")
        again = every_report(audit([tree], settings, cache=cache, jobs=jobs))
        now = {{f: (f.stat().st_ino, f.stat().st_mtime_ns) for f in (work / "cache" / "evaluations").glob("*.json")}}
        added = [f for f in now if stored.get(f) != now[f]]  # stored again: evaluated again
        out[jobs] = [cold == again, len(stored), len(added)]
    print(json.dumps({{"runs": out, "forks": len(forks), "torch": "torch" in sys.modules}}))
    raise SystemExit

out, errors = {{}}, {{}}
for name in {names!r}:
    root = Path({fixtures!r}) / name
    reports = []
    for jobs in (1, 2):
        settings = load_settings(None)
        settings.respect_gitignore = False
        result = audit([root], settings, jobs=jobs)
        reports.append((every_report(result), result.files_indexed, parsed_sets[-1]))
    out[name] = reports[0] == reports[1]
    errors[name] = reports[0][0].count(": E902 ")
print(json.dumps({{"same": out, "forks": len(forks), "torch": "torch" in sys.modules,
                  "errors": errors}}))
"""


def run_both_ways(names: list[str], how: str = "") -> dict:
    """Audit each fixture with one and two processes in a fresh interpreter."""
    script = SCRIPT.format(
        tests=str(ROOT / "tests"), root=str(ROOT), fixtures=str(FIXTURES), names=names, how=how
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=900, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


EVERY_FIXTURE = sorted(p.name for p in FIXTURES.iterdir() if p.is_dir() and p.name != "vllm")


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="workers are forked")
def test_every_fixture_reads_the_same_with_two_processes():
    got = run_both_ways(EVERY_FIXTURE)
    assert got["torch"] is False  # the audit never imports torch, so workers can be forked
    assert got["forks"] > 0  # some fixture has two device pools' evaluations to share
    assert [name for name, same in got["same"].items() if not same] == []


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="workers are forked")
def test_evaluations_sent_by_a_worker_read_as_computed_here():
    """The parent loads every evaluation, and knows every module the worker parsed."""
    got = run_both_ways(EVERY_FIXTURE, "worker_does_all")
    assert got["forks"] > 0
    assert [name for name, same in got["same"].items() if not same] == []


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="workers are forked")
def test_a_module_a_worker_finds_broken_is_reported_once(tmp_path):
    """A device pool reads a constant from a module the pre-filter skipped, whose syntax is
    broken: the worker evaluating the pair finds it (E902), the parent reports it as one
    process would."""
    tree = tmp_path / "tree"
    shutil.copytree(FIXTURES / "incident_buggy", tree)
    pool = tree / "sglang" / "srt" / "mem_cache" / "memory_pool.py"
    text = pool.read_text()
    marker = "        self.kv_lora_rank = kv_lora_rank\n"
    assert marker in text
    pool.write_text(
        text.replace(
            marker,
            marker + "        from sglang.srt.mem_cache.widths import WIDTH\n"
            "        self.extra_width = WIDTH\n",
        )
    )
    (pool.parent / "widths.py").write_text("WIDTH = (8\n")
    got = run_both_ways([str(tree)], "worker_does_all")
    assert got["forks"] > 0
    assert got["same"] == {str(tree): True}
    assert got["errors"] == {str(tree): 1}


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="workers are forked")
def test_workers_use_and_fill_the_evaluation_cache_as_one_process_does():
    """Stored evaluations are taken before the workers start; what workers evaluate is stored
    by the parent: after editing one pool file, the same few evaluations run again."""
    got = run_both_ways([], "cache")
    assert got["forks"] > 0
    one, two = got["runs"]["1"], got["runs"]["2"]
    assert one[0] and two[0]  # the edit is a comment: the same reports
    assert one[1] == two[1] > 0  # every evaluation stored, with or without workers
    assert one[2] == two[2] and 0 < two[2] < two[1]  # only what read the edited file again


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="workers are forked")
@pytest.mark.parametrize("how", ["raises", "dies"])
def test_a_worker_that_fails_leaves_its_evaluations_to_the_parent(how):
    got = run_both_ways(["zero_config", "assembly_kwargs_buggy"], how)
    assert got["forks"] > 0
    assert got["same"] == {"zero_config": True, "assembly_kwargs_buggy": True}


def test_one_process_where_torch_is_loaded(monkeypatch):
    """Forking with torch's threads running is unsafe: the evaluations stay in this process."""
    from auditor.evaluation import forked

    monkeypatch.setitem(sys.modules, "torch", object())
    assert forked.can_fork() is False
    calls = []

    class Evaluator:
        def cached(self, device, host=None, site=None):
            return None

        def computed(self, device, host=None, site=None):
            calls.append((device, host))
            return (device, host)

    tasks = [("d1", "h1", None), ("d2", "h2", None), ("d1", "h3", None)]
    assert forked.evaluate_all(tasks, Evaluator(), [], jobs=2) == [
        ("d1", "h1"),
        ("d2", "h2"),
        ("d1", "h3"),
    ]
    assert len(calls) == 3


class _Recording:
    """An evaluator that computes each task in this process and says which it computed."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def cached(self, device, host=None, site=None):
        return None

    def computed(self, device, host=None, site=None):
        self.calls.append((device, host))
        return (device, host)


def _no_fork_possible(monkeypatch, how: str) -> list:
    """`can_fork` says yes, then one resource a worker needs fails; returns the workers
    actually started (none may be)."""
    from auditor.evaluation import forked

    monkeypatch.setattr(forked, "can_fork", lambda: True)
    started: list = []

    def fail(*args, **kwargs):
        raise OSError(f"no {how} here")

    if how == "fork":
        monkeypatch.setattr(forked.os, "fork", fail)
    elif how == "temporary file":
        monkeypatch.setattr(forked.tempfile, "TemporaryFile", fail)
    else:  # shared memory for the counter of claimed groups

        class Context:
            def Value(self, *args, **kwargs):  # noqa: N802 - multiprocessing's name
                raise OSError("no shared memory here")

        monkeypatch.setattr(forked.multiprocessing, "get_context", lambda kind: Context())
    real_fork = forked._fork

    def counting(*args):
        started.append(1)
        return real_fork(*args)

    monkeypatch.setattr(forked, "_fork", counting)
    return started


@pytest.mark.parametrize("how", ["fork", "temporary file", "shared memory"])
def test_without_a_worker_every_evaluation_is_done_here(monkeypatch, how):
    """`os.fork` or the worker's temporary file failing (no process or file to spare), or no
    shared memory for the counter: the audit goes on in this process, every task evaluated
    once, in task order, as with `--jobs 1`."""
    from auditor.evaluation import forked

    started = _no_fork_possible(monkeypatch, how)
    evaluator = _Recording()
    tasks = [("d1", "h1", None), ("d2", "h2", None), ("d3", "h3", None)]
    assert forked.evaluate_all(tasks, evaluator, [], jobs=3) == [
        ("d1", "h1"),
        ("d2", "h2"),
        ("d3", "h3"),
    ]
    assert sorted(evaluator.calls) == [("d1", "h1"), ("d2", "h2"), ("d3", "h3")]
    # a worker was tried where shared memory exists (and failed); never without it
    assert len(started) == (0 if how == "shared memory" else 1)
