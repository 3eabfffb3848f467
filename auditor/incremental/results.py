"""Whole results and per-file facts of earlier runs, reused while nothing they came from changed.

Three levels, each checked before the work it saves: a manifest of the files' stat (no file is
read when none changed on disk), CPython's facts per file content, and the whole result keyed by
every file's name and facts and checked against the bytes of the modules libcst parsed for it.
Below them, evaluations are reused one by one (evaluations.py).
"""

from __future__ import annotations

import os
import re
import time
from typing import TYPE_CHECKING

from auditor.frontend.discover import SourceFile
from auditor.frontend.parse import FileError, ParsedModule, may_suppress
from auditor.frontend.prefilter import checked_facts
from auditor.frontend.project import Project, ReadFile
from auditor.incremental.cache import (
    Cache,
    InvalidEntry,
    NotCacheable,
    content_hash,
    dump,
    key_of,
    load,
    settings_fingerprint,
    tool_identity,
    torch_version,
)
from auditor.limits import Limits
from auditor.result import AuditResult
from auditor.settings import Settings

if TYPE_CHECKING:  # the index and evaluators load with the interpreter, when a pool may exist
    from auditor.evaluation.evaluate import PoolEvaluator
    from auditor.incremental.evaluations import CachedEvaluations, RecordingIndex

# A file modified this recently may be modified again within the same tick of the file
# system's clock (often several milliseconds) without its size or time changing: no manifest
# is written while one is that new (git's "racy clean" rule).
RACY_NANOSECONDS = 2_000_000_000
_HEX_KEY = re.compile(r"[0-9a-f]{16,128}")


class ResultStore:
    """The cache levels of one run, in the order the run meets them (a disabled cache finds
    nothing and stores nothing)."""

    def __init__(self, cache: Cache, settings: Settings, limits: Limits) -> None:
        self.cache = cache
        self.base_key = (
            tool_identity(),
            settings_fingerprint(settings),
            repr(limits),
            torch_version(),
        )
        self.manifest_key: str | None = None
        self.run_key: str | None = None
        self.digests: list[str | None] = []
        self.digest_of: dict[str, str] = {}

    def unchanged_on_disk(
        self, sources: list[SourceFile], problems: list[tuple]
    ) -> AuditResult | None:
        """The result stored for exactly these files, unchanged since (by their stat)."""
        if not self.cache.enabled:
            return None
        listed = [[str(p), why] for p, why in problems]
        self.manifest_key = manifest_key(sources, listed, self.base_key)
        if self.manifest_key is None:
            return None
        pointer = self.cache.get("manifests", self.manifest_key)
        if not isinstance(pointer, dict) or set(pointer) != {"result"}:
            return None
        if not isinstance(pointer["result"], str) or not _HEX_KEY.fullmatch(pointer["result"]):
            return None  # a key is a hash: never a path to follow
        entry = self.cache.get("results", pointer["result"])
        if not isinstance(entry, dict) or not isinstance(entry.get("read"), dict):
            return None
        return load_result(entry, entry["read"])  # no file changed: what it read is as it was

    def file_facts(self, files: list[ReadFile], jobs: int, words: set[str]) -> list[dict | None]:
        """CPython's facts of the files the pre-filter keeps, reused by content hash."""
        self.digests = [
            content_hash(data) if not isinstance(data, FileError) else None for _, _, data in files
        ]
        self.digest_of = {
            shown: digest
            for (_, shown, _), digest in zip(files, self.digests)
            if digest is not None
        }
        previous = self.cache.load_facts()
        cached = [previous.get(d) if d is not None else None for d in self.digests]
        facts = checked_facts(files, cached, jobs, words)
        if self.cache.enabled:
            used = {
                digest: known
                for digest, known in zip(self.digests, facts)
                if digest is not None and known is not None and not known.get("uncached")
            }
            self.cache.save_facts(used, previous)
        return facts

    def unchanged_content(self, project: Project) -> AuditResult | None:
        """The stored result, if every file's name and CPython facts are as they were and the
        modules libcst parsed for it still have the same bytes."""
        # The whole result depends on every file's name and CPython facts (errors, the outline
        # the pre-filter reads) and on the bytes of the modules libcst parsed; the latter are
        # checked against the entry's record, so an edit to any other file reuses the result.
        listing = [
            [
                shown,
                str(source.path),
                str(source.root),
                source.module,
                data.message if isinstance(data, FileError) else known,
                not isinstance(data, FileError) and may_suppress(data),
            ]
            for (source, shown, data), known in zip(project.files, project.facts)
        ]
        listed = [[str(p), why] for p, why in project.problems]
        self.run_key = key_of("result", self.base_key, listing, listed)
        entry = self.cache.get("results", self.run_key)
        stored = load_result(entry, self.digest_of)
        if stored is not None and may_build_hosts(project.files, stored, set(entry["read"])):
            stored = None  # a file libcst did not parse now names a host class: pairing reads it
        if stored is not None and self.manifest_key is not None:
            self.cache.put("manifests", self.manifest_key, {"result": self.run_key})
        return stored

    def index(self, parsed: list[ParsedModule], up_front: set[int], on_error) -> RecordingIndex:
        """The index, recording which modules each evaluation reaches."""
        from auditor.incremental import evaluations

        return evaluations.RecordingIndex(parsed, up_front, on_error)

    def evaluator(
        self,
        kind: str,
        index: RecordingIndex,
        evaluator: PoolEvaluator,
        project: Project,
        parsed: list[ParsedModule],
        late_errors: list[FileError],
    ) -> CachedEvaluations:
        """`evaluator` behind the per-evaluation cache (`kind` keeps evaluators apart)."""
        listed = [[s.module, str(s.path)] for s in project.sources]
        key = key_of("evaluation", self.base_key, listed)
        if kind != "evaluation":
            key = key_of(kind, key)
        from auditor.incremental import evaluations

        return evaluations.CachedEvaluations(
            index, evaluator, self.cache, key, parsed, self.digest_of, late_errors
        )

    def save(self, parsed: list[ParsedModule], result: AuditResult) -> None:
        """Store the result under the content key, and the manifest pointing to it."""
        if not self.cache.enabled:
            return
        try:
            read = {m.display_path: self.digest_of[m.display_path] for m in parsed if m.is_parsed}
            self.cache.put("results", self.run_key, {"read": read, "result": dump(result)})
            if self.manifest_key is not None:
                self.cache.put("manifests", self.manifest_key, {"result": self.run_key})
        except NotCacheable:
            pass


def manifest_key(sources: list[SourceFile], problems: list, base_key: tuple) -> str | None:
    """A key for the files as the file system describes them (path, size, modification time
    in nanoseconds, inode), with the working directory (output paths are relative to it);
    None if one cannot be stat'ed or was modified in the last two seconds. As ruff's cache,
    it trusts that a file whose size and modification time are unchanged has unchanged
    bytes; any change falls back to reading every file and comparing content hashes."""
    listing = []
    racy_after = time.time_ns() - RACY_NANOSECONDS
    for source in sources:
        try:
            info = source.path.stat()
        except OSError:
            return None
        if info.st_mtime_ns >= racy_after:
            return None
        listing.append([str(source.path), info.st_size, info.st_mtime_ns, info.st_ino])
    return key_of("manifest", base_key, os.getcwd(), listing, problems)


def may_build_hosts(files: list[ReadFile], stored: AuditResult, read: set[str]) -> bool:
    """Whether a file that libcst did not parse for the stored result now names a class (or
    table) that pairing searched every file's bytes for (sites.find_sites): it may hold a new
    construction site. Any other edit to such a file cannot change the result (its outline,
    what the pre-filter reads, is in the key)."""
    searched = stored.catalog.searched if stored.catalog is not None else []
    if not isinstance(searched, list) or not all(isinstance(n, str) for n in searched):
        return True  # not of the shape this run writes: do not trust it
    needles = [name.encode() for name in searched]
    return any(
        not isinstance(data, FileError)
        and shown not in read
        and any(needle in data for needle in needles)
        for _, shown, data in files
    )


def load_result(stored: object, digest_of: dict[str, str]) -> AuditResult | None:
    """A stored result, if every module libcst parsed for it still has the same bytes."""
    if not isinstance(stored, dict) or set(stored) != {"read", "result"}:
        return None
    read = stored["read"]
    if not isinstance(read, dict) or any(digest_of.get(p) != d for p, d in read.items()):
        return None
    try:
        loaded = load(stored["result"])
    except InvalidEntry:
        return None
    return loaded if isinstance(loaded, AuditResult) else None
