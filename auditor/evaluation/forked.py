"""Evaluations shared with forked worker processes: the other cores.

Evaluations are most of a cold run, and independent of each other. After the catalog, the
parent takes what the cache holds, then forks `jobs - 1` workers, which inherit the parsed
modules, the index and the catalog as they are (nothing is parsed again or sent on the way
in). Each process claims the next group of evaluations from a shared counter; a group is the
evaluations of one device pool, so their first builds stay shared (first_builds.py); larger
groups are claimed first. A worker sends back each evaluation in the per-evaluation cache's
entry format, as JSON (the modules it read with their hashes, the files libcst rejected
meanwhile, the evaluation dumped against its own pools), and which modules it parsed; the
parent loads each entry as it loads one from the cache (whose tests check that a loaded
evaluation reports byte for byte as the one computed) and stores it there. An evaluation that
cannot be dumped, or that a worker failed or never finished, is evaluated in the parent, so
the result does not depend on the workers (tests/test_forked.py).

Only where `fork` exists and torch is not loaded in this process (its threads do not survive a
fork; the audit never imports it, tests may).
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import signal
import sys
import tempfile
from typing import Any, Protocol

from auditor import dtypes
from auditor.frontend.parse import FileError, ParsedModule


class RecordingEvaluator(Protocol):
    """The per-evaluation cache's evaluator (incremental/evaluations.py)."""

    def computed(self, device: Any, host: Any = None, site: Any = None) -> Any: ...

    def cached(self, device: Any, host: Any = None, site: Any = None) -> Any: ...

    def recorded(self, device: Any, host: Any = None, site: Any = None) -> tuple[Any, Any]: ...

    def reload(self, entry: Any, device: Any, host: Any = None, site: Any = None) -> Any: ...


Task = tuple[Any, Any, Any]  # device class, host class or None, construction site or None


def can_fork() -> bool:
    """Whether workers can be forked here (POSIX, torch not loaded)."""
    return hasattr(os, "fork") and "torch" not in sys.modules


def evaluate_all(
    tasks: list[Task], evaluator: RecordingEvaluator, parsed: list[ParsedModule], jobs: int
) -> list[Any]:
    """Each task's evaluation, in task order; in `jobs` processes where it pays."""
    done: dict[int, Any] = {}
    for number, task in enumerate(tasks):  # the cache's first: a worker would not look
        stored = evaluator.cached(*task)
        if stored is not None:
            done[number] = stored
    groups: dict[int, list[int]] = {}
    for number, (device, _, _) in enumerate(tasks):
        if number not in done:
            groups.setdefault(id(device), []).append(number)
    # the largest groups first (those of more evaluations cost more), so that no process is
    # left with a large one while the others are done
    ordered = sorted(groups.values(), key=len, reverse=True)
    workers = min(jobs, len(ordered)) - 1
    if workers >= 1 and can_fork():
        dtypes.facts()  # known before forking: a worker never reads torch
        try:
            counter = multiprocessing.get_context("fork").Value("i", 0)
        except (OSError, ValueError, ImportError):  # no shared memory here: one process
            counter = None
        if counter is not None:
            _share(tasks, ordered, evaluator, parsed, counter, workers, done)
    return [done[n] if n in done else evaluator.computed(*task) for n, task in enumerate(tasks)]


def _share(
    tasks: list[Task],
    groups: list[list[int]],
    evaluator: RecordingEvaluator,
    parsed: list[ParsedModule],
    counter: Any,
    workers: int,
    done: dict[int, Any],
) -> None:
    """Evaluate the groups with `workers` forked processes beside this one (any left undone
    is evaluated by the caller)."""
    started: list[tuple[int, Any]] = []
    try:
        for _ in range(workers):
            try:
                started.append(_fork(tasks, groups, evaluator, parsed, counter))
            except OSError:  # no process or temporary file to spare: fewer workers
                break
        for group in _claims(counter, groups):
            for number in group:
                done[number] = evaluator.computed(*tasks[number])
        for pid, output in started:
            _, status = os.waitpid(pid, 0)
            _receive(output, status, tasks, evaluator, parsed, done)
    finally:
        for pid, output in started:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            output.close()


def _claims(counter: Any, groups: list[list[int]]):
    """The groups this process claims, one at a time, until none is left."""
    while True:
        with counter.get_lock():
            claimed = counter.value
            counter.value += 1
        if claimed >= len(groups):
            return
        yield groups[claimed]


def _fork(
    tasks: list[Task],
    groups: list[list[int]],
    evaluator: RecordingEvaluator,
    parsed: list[ParsedModule],
    counter: Any,
) -> tuple[int, Any]:
    """A worker evaluating the groups it claims; its messages go to a temporary file (a pipe
    would block it once full, while the parent is still evaluating)."""
    output = tempfile.TemporaryFile()
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        pid = os.fork()
    except OSError:
        output.close()
        raise
    if pid != 0:
        return pid, output
    code = 1
    try:  # the worker: never returns, never runs the parent's exit handlers
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C ends it; the parent reports
        before = {module.display_path for module in parsed if module.is_parsed}
        messages: list[str] = []  # each `[number, entry]` as JSON (entry null: not sent)
        for group in _claims(counter, groups):
            for number in group:
                try:
                    _, entry = evaluator.recorded(*tasks[number])
                    messages.append(json.dumps([number, entry], allow_nan=False))
                except Exception:  # noqa: BLE001 - the parent evaluates it and reports the error
                    messages.append(json.dumps([number, None]))
        newly = {
            module.display_path: _error_fields(module.rejection)
            for module in parsed
            if module.is_parsed and module.display_path not in before
        }
        output.write(f"[[{','.join(messages)}],{json.dumps(newly)}]".encode())
        output.flush()
        code = 0
    finally:
        os._exit(code)


def _receive(
    output: Any,
    status: int,
    tasks: list[Task],
    evaluator: RecordingEvaluator,
    parsed: list[ParsedModule],
    done: dict[int, Any],
) -> None:
    """Load what a worker that finished sent (a failed worker's groups stay to do)."""
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        return
    output.seek(0)
    try:  # JSON, as the cache's entries: data, never code
        messages, newly = json.loads(output.read())
        assert isinstance(messages, list) and isinstance(newly, dict)
    except Exception:  # noqa: BLE001 - a worker's output cut short: evaluate its groups here
        return
    by_path = {module.display_path: module for module in parsed}
    for path, fields in newly.items():  # the whole result depends on the modules it parsed
        module = by_path.get(path)
        if module is not None:
            module.parsed_elsewhere(_error_from(path, fields))
    for message in messages:
        if not isinstance(message, list) or len(message) != 2:
            continue
        number, entry = message
        if type(number) is int and 0 <= number < len(tasks) and number not in done:
            loaded = evaluator.reload(entry, *tasks[number]) if entry is not None else None
            if loaded is not None:
                done[number] = loaded


def _error_fields(error: FileError | None) -> list | None:
    """A module's rejection as JSON (None: libcst parsed it)."""
    return None if error is None else [error.line, error.column, error.message]


def _error_from(path: str, fields: object) -> FileError | None:
    """The rejection a worker sent, if it is one."""
    if (
        isinstance(fields, list)
        and len(fields) == 3
        and type(fields[0]) is int
        and type(fields[1]) is int
        and isinstance(fields[2], str)
    ):
        return FileError(path, fields[0], fields[1], fields[2])
    return None
