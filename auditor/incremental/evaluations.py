"""Evaluations reused from the cache while no module they read has changed.

The evaluator is wrapped, not changed: `RecordingIndex` notes which modules each evaluation
reached, and `CachedEvaluations` stores an evaluation with the hash of each of them.
"""

from __future__ import annotations

import dataclasses

from auditor.evaluation.evaluate import Evaluation, PoolEvaluator
from auditor.frontend.index import ClassInfo, ProjectIndex
from auditor.frontend.parse import FileError, ParsedModule
from auditor.incremental.cache import Cache, InvalidEntry, NotCacheable, dump, key_of, load
from auditor.pairing.sites import ConstructionSite


class RecordingIndex(ProjectIndex):
    """The index, noting which modules each piece of work reached.

    Every name resolution that crosses modules goes through `find_module`; the modules it
    returns while a recording is open are added to it. Linking a class's bases is recorded per
    module (`link_reads`): a class's meaning also depends on the modules its bases came from.
    The per-evaluation cache is only as sound as that premise: code that reaches another
    module without `find_module` must record it too (tests/test_cache.py edits a pool file
    and checks what is evaluated again).
    """

    def __init__(self, *args, **kwargs) -> None:
        self.recordings: list[set[str]] = []
        self.link_reads: dict[str, set[str]] = {}
        super().__init__(*args, **kwargs)

    def find_module(self, name: str, near=None):
        found = super().find_module(name, near)
        if found is not None:
            for recording in self.recordings:
                recording.add(found.path)
        return found

    def _link_bases(self, cls: ClassInfo, outer: ClassInfo | None = None) -> None:
        recording: set[str] = set()
        self.recordings.append(recording)
        try:
            super()._link_bases(cls, outer)
        finally:
            self.recordings.pop()
        self.link_reads.setdefault(cls.module.path, set()).update(recording)

    def reads(self, start: set[str]) -> set[str]:
        """`start`, and every module the base links of those modules' classes reached."""
        seen: set[str] = set()
        pending = list(start)
        while pending:
            path = pending.pop()
            if path not in seen:
                seen.add(path)
                pending.extend(self.link_reads.get(path, ()))
        return seen


class CachedEvaluations:
    """Pool evaluations, read from the cache when no module the evaluation read has changed.

    An entry records the hash of every module the evaluation reached (its pools' modules and
    every module a name resolution returned, with the modules their classes' bases came from)
    and of every module libcst rejected, and is used only while each still has that hash. The
    key holds the names of all files, so adding or removing a module (which changes what
    imports resolve to) evaluates again. A change to a file no evaluation read re-evaluates
    nothing.
    """

    def __init__(
        self,
        index: RecordingIndex,
        evaluator: PoolEvaluator,
        cache: Cache,
        base_key: str,
        parsed: list[ParsedModule],
        digests: dict[str, str],
        late_errors: list[FileError],
    ) -> None:
        self.index = index
        self.evaluator = evaluator
        self.cache = cache
        self.base_key = base_key
        self.parsed = parsed
        self.digests = digests
        self.late_errors = late_errors

    def evaluate(
        self, device: ClassInfo, host: ClassInfo | None = None, site: ConstructionSite | None = None
    ) -> Evaluation:
        if not self.cache.enabled:
            return self.evaluator.evaluate(device, host, site)
        stored = self.cached(device, host, site)
        return stored if stored is not None else self.computed(device, host, site)

    def computed(
        self, device: ClassInfo, host: ClassInfo | None = None, site: ConstructionSite | None = None
    ) -> Evaluation:
        """The evaluation computed here (the cache already looked in), and stored."""
        if not self.cache.enabled:
            return self.evaluator.evaluate(device, host, site)
        evaluation, entry = self.recorded(device, host, site)
        if entry is not None:
            self.cache.put("evaluations", self._key(device, host, site), entry)
        return evaluation

    def cached(
        self, device: ClassInfo, host: ClassInfo | None = None, site: ConstructionSite | None = None
    ) -> Evaluation | None:
        """The evaluation stored while no module it read has changed, if any."""
        if not self.cache.enabled:
            return None
        stored = self.cache.get("evaluations", self._key(device, host, site))
        return self._load(stored, device, host, site)

    def _key(self, device: ClassInfo, host: ClassInfo | None, site: ConstructionSite | None) -> str:
        return key_of(
            self.base_key,
            [
                [cls.module.path, cls.qualname] if cls is not None else None
                for cls in (device, host)
            ],
            site.key() if site is not None else None,
            self.evaluator.roles.key(device, host, site.host if site is not None else None),
            sorted(self.evaluator.roles.given.get((id(device), id(host)), {}).items()),
        )

    def recorded(
        self, device: ClassInfo, host: ClassInfo | None = None, site: ConstructionSite | None = None
    ) -> tuple[Evaluation, dict | None]:
        """The evaluation, and its entry: the modules it read with their hashes, the files
        libcst rejected meanwhile, the evaluation dumped against its own pools (None if it
        holds another class). A forked worker sends the entry to the parent (forked.py)."""
        roles = {"device": device, "host": host}
        errors_before = len(self.late_errors)
        recording = {cls.module.path for cls in roles.values() if cls is not None}
        if site is not None:  # its arguments are evaluated in its module
            recording.add(site.module.path)
        self.index.recordings.append(recording)
        try:
            evaluation = self.evaluator.evaluate(device, host, site)
        finally:
            self.index.recordings.pop()
        paths = self.index.reads(recording)
        paths.update(module.display_path for module in self.parsed if module.rejected)
        read = {path: self.digests[path] for path in sorted(paths)}
        errors = [[e.path, e.line, e.column, e.message] for e in self.late_errors[errors_before:]]

        def role_of(cls: object) -> str:
            for role, known in roles.items():
                if cls is known:
                    return role
            raise NotCacheable("an evaluation holds a class other than its own pools")

        try:  # the site is the caller's: stored as its key, given back on loading
            body = dump(dataclasses.replace(evaluation, site=None), role_of)
        except NotCacheable:
            return evaluation, None
        return evaluation, {"read": read, "errors": errors, "evaluation": body}

    def reload(
        self,
        entry: object,
        device: ClassInfo,
        host: ClassInfo | None = None,
        site: ConstructionSite | None = None,
    ) -> Evaluation | None:
        """The evaluation of an entry this run's worker just made (no module changed since;
        a file this process found rejected meanwhile is no reason to refuse it), stored as
        this process stores its own."""
        evaluation = self._load(entry, device, host, site, fresh=True)
        if evaluation is not None and self.cache.enabled:
            self.cache.put("evaluations", self._key(device, host, site), entry)
        return evaluation

    def _load(
        self,
        stored: object,
        device: ClassInfo,
        host: ClassInfo | None,
        site: ConstructionSite | None,
        fresh: bool = False,
    ) -> Evaluation | None:
        roles = {"device": device, "host": host}
        if not isinstance(stored, dict) or set(stored) != {"read", "errors", "evaluation"}:
            return None
        read, errors = stored["read"], stored["errors"]
        if not isinstance(read, dict) or not isinstance(errors, list):
            return None
        if any(self.digests.get(path) != digest for path, digest in read.items()):
            return None  # a module it read has changed (or is gone)
        if not fresh and any(m.rejected and m.display_path not in read for m in self.parsed):
            return None  # a module libcst rejects now was not known as rejected then
        late = []
        for error in errors:
            if (
                not isinstance(error, list)
                or len(error) != 4
                or not isinstance(error[0], str)
                or not all(type(v) is int for v in error[1:3])
                or not isinstance(error[3], str)
            ):
                return None
            late.append(FileError(*error))
        try:
            evaluation = load(stored["evaluation"], roles.get)
        except InvalidEntry:
            return None
        if not isinstance(evaluation, Evaluation) or (
            evaluation.device is not roles["device"]
            or evaluation.host is not roles["host"]
            or evaluation.site is not None
        ):
            return None
        evaluation.site = site
        self.late_errors.extend(late)
        return evaluation
