"""The audit, stage by stage: project -> index -> catalog -> evaluations -> findings.

`audit` is the spine: reading, pre-filtering and the caches' checks here, the stages over the
modules that may hold a pool in stages.py. Caching wraps stages (incremental/: a result store
checked before the work it saves, and an evaluator that reuses evaluations), it does not live
inside them. A tree where no file may hold a pool and none concerns an engine's own stage (a
pre-commit hook given the changed files, mostly) is answered here without loading libcst or
the interpreter: the stages would find nothing in it (`nothing_to_audit`; tests compare both).
"""

from __future__ import annotations

import time
from pathlib import Path

from auditor import engines
from auditor.coverage import measure_coverage
from auditor.frontend.parse import FileError, ParsedModule
from auditor.frontend.prefilter import outline_rule, pool_words
from auditor.frontend.project import (
    Project,
    ReadFile,
    find_sources,
    modules,
    read_file,
)
from auditor.incremental.cache import Cache
from auditor.incremental.results import ResultStore
from auditor.interpret.memos import MEMOS
from auditor.limits import DEFAULT_LIMITS, Limits
from auditor.pairing.pool_catalog import PoolCatalog
from auditor.progress import COUNTERS
from auditor.result import AuditResult, Unresolved, count_files, file_errors
from auditor.settings import Settings

__all__ = ["AuditResult", "Unresolved", "audit"]


def audit(
    paths: list[Path],
    settings: Settings,
    limits: Limits = DEFAULT_LIMITS,
    cache: Cache | None = None,
    jobs: int = 1,
) -> AuditResult:
    """Audit the Python files under `paths`. Never imports or runs any of them.

    `cache` (disabled by default) holds what earlier runs computed, keyed by the bytes it was
    computed from; `jobs` worker processes run the per-file CPython check and the evaluations.
    """
    started = time.perf_counter()
    store = ResultStore(cache if cache is not None else Cache(None), settings, limits)
    sources, problems = find_sources(paths, settings)
    result = store.unchanged_on_disk(sources, problems)  # no file read
    if result is None:
        files = [_counted(read_file(source)) for source in sources]
        facts = store.file_facts(files, jobs, pool_words(settings))
        project = Project(sources, problems, files, facts)
        result = store.unchanged_content(project)  # no file parsed with libcst
        if result is None:
            result, parsed = run(project, settings, limits, store, jobs)
            result.seconds = time.perf_counter() - started
            if not result.stages:  # an engine stage's files are not recorded (StageOutcome)
                store.save(parsed, result)
            return result
    result.seconds = time.perf_counter() - started
    return result


def _counted(read: ReadFile) -> ReadFile:
    COUNTERS.files += 1  # the progress line (progress.py)
    return read


def run(
    project: Project, settings: Settings, limits: Limits, store: ResultStore, jobs: int = 1
) -> tuple[AuditResult, list[ParsedModule]]:
    """The stages proper, over files already read: index -> catalog -> evaluations -> checks."""
    MEMOS.forget()  # an earlier run's syntax is not met again
    parsed, errors = modules(project.files, project.facts)
    candidates = outline_rule(parsed, pool_words(settings))
    if not candidates and not may_concern_stages(project, parsed):
        return nothing_to_audit(project, parsed, errors, settings), parsed
    from auditor import stages  # libcst and the interpreter, loaded where a pool may be

    return stages.run(project, parsed, errors, candidates, settings, limits, store, jobs), parsed


def may_concern_stages(project: Project, parsed: list[ParsedModule]) -> bool:
    """Whether anything but a pool class could give the stages work: a suppression comment
    (LA100 judges it), or a file an engine's own stage looks at (vLLM: a KV spec class)."""
    if any(module.may_suppress for module in parsed):
        return True
    wanted = [e.stage_files for e in engines.with_stages() if e.stage_files is not None]
    if len(wanted) != len(engines.with_stages()):
        return True  # a stage that does not say which files it looks at may look at any
    return any(
        want(data)
        for want in wanted
        for _, _, data in project.files
        if not isinstance(data, FileError)
    )


def nothing_to_audit(
    project: Project, parsed: list[ParsedModule], errors: list[FileError], settings: Settings
) -> AuditResult:
    """What the stages give where no file may hold a pool and none concerns them: no pool,
    no pair, nothing evaluated; the files read and their errors counted as they count them."""
    result = AuditResult(
        errors=file_errors(project.problems, errors, []), catalog=PoolCatalog([], [], [], [])
    )
    count_files(result, project.sources, parsed, [])
    result.coverage = measure_coverage([], result.catalog, settings, result.files_read)
    return result
