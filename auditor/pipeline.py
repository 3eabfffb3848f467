"""The pipeline, stage by stage: discover -> parse -> index -> pair -> evaluate -> check."""

from __future__ import annotations

import dataclasses
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from auditor.checks import DEVICE_CHECKS, PAIR_CHECKS, la100_unused_suppression
from auditor.checks.findings import Finding
from auditor.checks.suppressions import SuppressionIndex, scan
from auditor.evaluation.evaluate import Evaluation, PoolEvaluator
from auditor.evaluation.site_run import drop_never_built
from auditor.frontend.discover import SourceFile, discover
from auditor.frontend.index import ClassInfo, ProjectIndex
from auditor.frontend.parse import (
    ClassOutline,
    FileError,
    LateParseError,
    ParsedModule,
    check_facts,
    may_suppress,
    module_from_facts,
    outline_from_json,
    read_source,
)
from auditor.frontend.prefilter import BaseNames, derive_by_name, pool_like_names
from auditor.frontend.prefilter import may_define_pools as may_matter
from auditor.frontend.workers import check_all
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
from auditor.interpret.values import Unknown
from auditor.limits import DEFAULT_LIMITS, Limits
from auditor.pairing.catalog import PoolCatalog, catalog, evaluate_pairs
from auditor.pairing.declared import DeclaredHostEvaluator
from auditor.pairing.sites import ConstructionSite
from auditor.settings import Settings


@dataclass(frozen=True)
class Unresolved:
    """Something the interpreter could not determine, and what it was trying to determine."""

    subject: str
    unknown: Unknown


@dataclass
class AuditResult:
    findings: list[Finding] = field(default_factory=list)
    suppressed: list[Finding] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)
    unresolved: list[Unresolved] = field(default_factory=list)
    evaluations: list[Evaluation] = field(default_factory=list)
    catalog: PoolCatalog | None = None
    files_read: int = 0  # files read and parsed (E902 files excluded)
    files_found: int = 0  # files discovered
    files_indexed: int = 0  # of those read, the ones that could matter and went through libcst
    seconds: float = 0.0

    @property
    def points_evaluated(self) -> int:
        return sum(len(e.points) for e in self.evaluations)


def display_path(path: Path) -> str:
    """Paths relative to the working directory when below it, as ruff prints them.

    `Path.absolute().relative_to(Path.cwd())` in string operations (this runs for every file):
    a Path's text is already normalised, so joining and comparing the texts gives the same.
    """
    text = str(path)
    cwd = os.getcwd()
    if not os.path.isabs(text):
        text = os.path.join(cwd, text) if text != "." else cwd
    if text == cwd:
        shown = "."
    elif text.startswith(cwd.rstrip(os.sep) + os.sep):
        shown = text[len(cwd.rstrip(os.sep)) + 1 :]
    else:
        shown = text
    return shown if shown.isprintable() else "".join(_printable(c) for c in shown)


def _printable(char: str) -> str:
    """A character of a path as output can show it: undecodable bytes (lone surrogates from
    the file system) as `\\xff`, control characters as `\\n`, so every report line stays one
    line of valid UTF-8."""
    if char.isprintable():
        return char
    if "\udc80" <= char <= "\udcff":
        return f"\\x{ord(char) - 0xDC00:02x}"
    return char.encode("unicode_escape").decode("ascii")


def _collect_unresolved(evaluation: Evaluation, into: dict[tuple, Unresolved]) -> None:
    pair = (
        evaluation.device.name
        if evaluation.host is None
        else (f"{evaluation.host.name} <- {evaluation.device.name}")
    )
    feasible = evaluation.feasible
    if evaluation.truncated:
        reason = (
            f"config point limit reached: {len(evaluation.points)} points evaluated, "
            "the rest of the matrix was not"
        )
        into.setdefault(
            (pair, reason), Unresolved(pair, Unknown(reason, evaluation.device.location))
        )
    if evaluation.points and not feasible:
        first = evaluation.points[0]
        reason = (
            first.failure
            if first.failure is not None  # an Unknown has no truth value
            else Unknown(
                f"no feasible config point: {first.infeasible.reason}", first.infeasible.location
            )
        )
        into.setdefault((pair, reason.reason), Unresolved(pair, reason))
    for point in evaluation.points:
        if point.failure is not None:
            into.setdefault((pair, point.failure.reason), Unresolved(pair, point.failure))
        sides = [(evaluation.device.name, point.device)]
        if evaluation.host is not None:
            sides.append((evaluation.host.name, point.host))
        for class_name, figures in sides:
            for figure in figures.values():
                if figure.unknown is not None:
                    subject = f"{class_name}.{figure.name}"
                    key = (subject, figure.unknown.reason, figure.unknown.location)
                    into.setdefault(key, Unresolved(subject, figure.unknown))


_HEX_KEY = re.compile(r"[0-9a-f]{16,128}")
_CLASS_NAME = re.compile(r"^[ \t]*class[ \t]+(\w+)", re.MULTILINE)


def may_define_pools(parsed: list[ParsedModule], settings: Settings) -> set[int]:
    """The modules (by id) that may define a pool class, or hold a suppression comment.

    A device pool's constructor takes a layer-count parameter and a host pool's a device-pool
    parameter (pairing.py): a class may be a pool if an `__init__` in its body takes one, or
    if it derives from such a class. Derivation is followed by name, from each file's outline
    (CPython's syntax tree, no libcst): a class naming, in its bases, a class already kept or
    an `import ... as` alias of one is kept too, until nothing changes. Other modules cannot
    define a pool; they are indexed only if resolving a name needs them.
    """
    words = _pool_words(settings)
    kept: set[int] = set()
    names: set[str] = set()  # classes that may be pools, or derive from one
    aliases: list[tuple[str, str]] = []
    pending: list[tuple[int, ClassOutline]] = []  # classes not known to be pool-like yet
    for module in parsed:
        if not module.checked:  # the pre-filter found nothing that can matter in it
            continue
        shape = module.outline
        if shape is None:  # CPython did not parse it: every class in it may be a pool
            kept.add(id(module))
            try:
                names.update(_CLASS_NAME.findall(module.tree.code))
            except LateParseError:
                pass
            continue
        if module.may_suppress:
            kept.add(id(module))
        aliases.extend(shape.aliases)
        for cls in shape.classes:
            if cls.init_params & words:
                kept.add(id(module))
                names.add(cls.name)
            else:
                pending.append((id(module), cls))
    kept.update(derive_by_name(names, aliases, pending))
    return kept


def _apply_suppressions(
    result: AuditResult, parsed: list[ParsedModule], selected: set[str]
) -> None:
    """Drop silenced findings, then report suppressions that silenced nothing (LA100)."""
    found = []
    for module in parsed:
        if module.may_suppress:  # parsed up front (may_define_pools keeps it), or rejected
            try:
                found.extend(scan(module.display_path, module.tree.code))
            except LateParseError:
                pass
    suppressions = SuppressionIndex(found)
    kept = []
    for finding in result.findings:
        location = finding.location
        if suppressions.silences(finding.code, location.path, location.line):
            result.suppressed.append(finding)
        else:
            kept.append(finding)
    result.findings = kept
    if la100_unused_suppression.CODE in selected:
        # LA100 itself is switched off with `ignore = ["LA100"]`, not with a comment
        result.findings.extend(la100_unused_suppression.findings(suppressions.unused(), selected))


def audit(
    paths: list[Path],
    settings: Settings,
    limits: Limits = DEFAULT_LIMITS,
    cache: Cache | None = None,
    jobs: int = 1,
) -> AuditResult:
    """Audit the Python files under `paths`. Never imports or runs any of them.

    `cache` (disabled by default) holds what earlier runs computed, keyed by the bytes it was
    computed from; `jobs` worker processes run the per-file CPython check.
    """
    started = time.perf_counter()
    cache = cache if cache is not None else Cache(None)
    sources, problems = discover(
        paths,
        exclude=tuple(settings.exclude) if settings.exclude is not None else None,
        extend_exclude=tuple(settings.extend_exclude),
        respect_gitignore=settings.respect_gitignore,
        include=tuple(settings.include),
    )
    base_key = (tool_identity(), settings_fingerprint(settings), repr(limits), torch_version())
    listed = [[str(p), why] for p, why in problems]
    manifest_key = _manifest_key(sources, listed, base_key) if cache.enabled else None
    if manifest_key is not None:
        stored = _load_by_manifest(cache, manifest_key)
        if stored is not None:
            stored.seconds = time.perf_counter() - started
            return stored
    files = [_read(source) for source in sources]
    digests = [
        content_hash(data) if not isinstance(data, FileError) else None for _, _, data in files
    ]
    facts = _file_facts(files, digests, cache, jobs, settings)
    # The whole result depends on every file's name and CPython facts (errors, the outline the
    # pre-filter reads) and on the bytes of the modules libcst parsed; the latter are checked
    # against the entry's record, so an edit to any other file reuses the result.
    listing = [
        [
            shown,
            str(source.path),
            str(source.root),
            source.module,
            data.message if isinstance(data, FileError) else known,
            not isinstance(data, FileError) and may_suppress(data),
        ]
        for (source, shown, data), known in zip(files, facts)
    ]
    run_key = key_of("result", base_key, listing, listed)
    digest_of = {
        shown: digest for (_, shown, _), digest in zip(files, digests) if digest is not None
    }
    entry = cache.get("results", run_key)
    stored = _load_result(entry, digest_of)
    if stored is not None and _may_build_hosts(files, stored, set(entry["read"])):
        stored = None  # a file libcst did not parse now names a host class: pairing reads it
    if stored is not None:
        if manifest_key is not None:
            cache.put("manifests", manifest_key, {"result": run_key})
        stored.seconds = time.perf_counter() - started
        return stored
    result = AuditResult()
    for path, why in problems:
        result.errors.append(FileError(display_path(path), 1, 1, why))
    parsed = _modules(files, facts, result)
    result.files_found = len(sources)
    late_errors: list[FileError] = []
    index = _RecordingIndex(parsed, may_define_pools(parsed, settings), late_errors.append)
    pools = catalog(index, settings, parsed)
    result.catalog = pools
    evaluations_key = key_of("evaluation", base_key, [[s.module, str(s.path)] for s in sources])
    evaluations = _CachedEvaluations(
        index,
        PoolEvaluator(index, settings, limits),
        cache,
        evaluations_key,
        parsed,
        digest_of,
        late_errors,
    )
    unresolved: dict[tuple, Unresolved] = {}
    for unknown in pools.unresolved:
        unresolved[("pairing", unknown.reason)] = Unresolved("pairing", unknown)
    paired_devices = set()
    selected = [code for code in settings.select if code not in settings.ignore]
    evaluated = evaluate_pairs(pools, evaluations)
    evaluated, never = drop_never_built(evaluated, pools)
    for unknown in never:  # a factory chose another class wherever the pair could be built
        unresolved[("pairing", unknown.reason)] = Unresolved("pairing", unknown)
    declared_evaluator = DeclaredHostEvaluator(index, settings, limits)
    declared_pairs, declared_unknowns = declared_evaluator.declared_pairs(pools.devices)
    for unknown in declared_unknowns:
        unresolved[("declared", unknown.reason)] = Unresolved("declared host layout", unknown)
    pools.add_declared(declared_pairs)  # after evaluate_pairs: these have their own evaluator
    declared_evaluations = _CachedEvaluations(
        index,
        declared_evaluator,
        cache,
        key_of("declared", evaluations_key),
        parsed,
        digest_of,
        late_errors,
    )
    evaluated += [
        (pair, declared_evaluations.evaluate(pair.device, pair.host)) for pair in declared_pairs
    ]
    stored: set[int] = set()  # sites sharing one evaluation list it once
    for pair, evaluation in evaluated:
        if id(evaluation) not in stored:
            stored.add(id(evaluation))
            result.evaluations.append(evaluation)
            _collect_unresolved(evaluation, unresolved)
        paired_devices.add(id(pair.device))
    for code in selected:
        if code not in PAIR_CHECKS:
            continue
        check = PAIR_CHECKS[code]
        if hasattr(check, "check_pairs"):  # judges the pairs together (LA001: across sites)
            result.findings.extend(check.check_pairs(evaluated, settings))
            continue
        seen: set[tuple] = set()  # sites sharing one evaluation would repeat its findings
        for pair, evaluation in evaluated:
            for finding in check.check(evaluation, settings):
                if (finding.location, finding.message) in seen:
                    continue
                seen.add((finding.location, finding.message))
                result.findings.append(
                    dataclasses.replace(finding, pairing=pair.evidence, pairing_detail=pair.detail)
                )
    for code in selected:
        if code in DEVICE_CHECKS:
            result.findings.extend(DEVICE_CHECKS[code].check_device(result.evaluations, settings))
    for device in pools.devices:
        if id(device) not in paired_devices:
            evaluation = evaluations.evaluate(device)
            result.evaluations.append(evaluation)
            _collect_unresolved(evaluation, unresolved)
    _apply_suppressions(result, parsed, set(selected))
    reported = set()
    for error in late_errors:  # files libcst rejected when first needed (CPython accepted them)
        if error.path not in reported:  # also those an evaluation read from the cache needed
            reported.add(error.path)
            result.errors.append(
                dataclasses.replace(error, message=" ".join(error.message.split()))
            )
    rejected = {module.display_path for module in parsed if module.rejected}
    result.files_read = len(parsed) - len(rejected | reported)
    result.files_indexed = sum(1 for module in parsed if module.is_parsed) - len(rejected)
    result.findings.sort(key=Finding.sort_key)
    result.errors.sort(key=lambda e: (e.path, e.line, e.column))
    result.unresolved = sorted(
        unresolved.values(),
        key=lambda u: (
            u.unknown.location.path if u.unknown.location else "",
            u.unknown.location.line if u.unknown.location else 0,
            u.subject,
            u.unknown.reason,
        ),
    )
    result.seconds = time.perf_counter() - started
    if cache.enabled:
        try:
            read = {m.display_path: digest_of[m.display_path] for m in parsed if m.is_parsed}
            cache.put("results", run_key, {"read": read, "result": dump(result)})
            if manifest_key is not None:
                cache.put("manifests", manifest_key, {"result": run_key})
        except NotCacheable:
            pass
    return result


# A file modified this recently may be modified again within the same tick of the file
# system's clock (often several milliseconds) without its size or time changing: no manifest
# is written while one is that new (git's "racy clean" rule).
RACY_NANOSECONDS = 2_000_000_000


def _manifest_key(sources: list[SourceFile], problems: list, base_key: tuple) -> str | None:
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


def _load_by_manifest(cache: Cache, manifest_key: str) -> AuditResult | None:
    """The whole result stored for exactly these files, unchanged since (by their stat)."""
    pointer = cache.get("manifests", manifest_key)
    if not isinstance(pointer, dict) or set(pointer) != {"result"}:
        return None
    if not isinstance(pointer["result"], str) or not _HEX_KEY.fullmatch(pointer["result"]):
        return None  # a key is a hash: never a path to follow
    entry = cache.get("results", pointer["result"])
    if not isinstance(entry, dict) or not isinstance(entry.get("read"), dict):
        return None
    return _load_result(entry, entry["read"])  # no file changed: what it read is as it was


def _read(source: SourceFile) -> tuple[SourceFile, str, bytes | FileError]:
    """A file's bytes (the key of everything cached about it), or why it cannot be read."""
    shown = display_path(source.path)
    try:
        return source, shown, read_source(source, shown)
    except Exception as error:  # noqa: BLE001 - one bad file must not end the audit
        message = f"cannot read file: {type(error).__name__}: {error}"
        return source, shown, FileError(shown, 1, 1, message)


def _may_build_hosts(files, stored: AuditResult, read: set[str]) -> bool:
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


def _load_result(stored: object, digest_of: dict[str, str]) -> AuditResult | None:
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


def _file_facts(
    files: list[tuple[SourceFile, str, bytes | FileError]],
    digests: list[str | None],
    cache: Cache,
    jobs: int,
    settings: Settings,
) -> list[dict | None]:
    """CPython's check (parse.file_facts) of every readable file that can matter (see
    prefilter.py), from the cache or computed in worker processes; None for a file that could
    not be read or that the pre-filter leaves to be checked on first need."""
    previous = cache.load_facts()
    facts: list[dict | None] = [None] * len(files)
    pool_words = _pool_words(settings)
    words = [w.encode() for w in pool_words]
    wanted = [
        i
        for i, (_, _, data) in enumerate(files)
        if not isinstance(data, FileError) and may_matter(data, words)
    ]
    base_names = BaseNames()
    for i, (_, _, data) in enumerate(files):
        if not isinstance(data, FileError):
            base_names.every_base |= base_names.bases_of(i, data)
    shapes, eager_names = [], set()  # of the files checked so far (each round adds)
    while wanted:
        _check_files(wanted, files, digests, previous, facts, jobs)
        for i in wanted:
            known = facts[i]
            if "outline" in known:
                shapes.append(outline_from_json(known["outline"]))
            elif "eager" in known:  # every class in it may be a pool
                eager_names.update(m.encode() for m in _CLASS_NAME.findall(_text(files[i][2])))
        names = pool_like_names(shapes, pool_words) | eager_names
        wanted = [
            i
            for i, (_, _, data) in enumerate(files)
            if facts[i] is None
            and not isinstance(data, FileError)
            and base_names.needs_check(i, data, names)
        ]
    if cache.enabled:
        used = {
            digest: known
            for digest, known in zip(digests, facts)
            if digest is not None and known is not None and not known.get("uncached")
        }
        cache.save_facts(used, previous)
    return facts


def _pool_words(settings: Settings) -> set[str]:
    """The `__init__` parameter names that make a class a possible pool (pairing.py)."""
    return (
        set(settings.layer_params)
        | set(settings.device_pool_params)
        | set(settings.buffer_info_params)
    )


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _check_files(
    wanted: list[int],
    files: list,
    digests: list[str | None],
    previous: dict,
    facts: list[dict | None],
    jobs: int,
) -> None:
    """Fill `facts` for the `wanted` files: from the cache when it has them, else computed."""
    missing = []
    for i in wanted:
        known = previous.get(digests[i]) if digests[i] is not None else None
        if known is not None:
            try:
                facts[i] = check_facts(known)
                continue
            except ValueError:
                pass
        missing.append(i)
    for i, computed in zip(missing, check_all([files[i][2] for i in missing], jobs)):
        facts[i] = computed


def _modules(
    files: list[tuple[SourceFile, str, bytes | FileError]],
    facts: list[dict | None],
    result: AuditResult,
) -> list[ParsedModule]:
    """The ParsedModule of each file CPython accepts; errors go to `result.errors`."""
    parsed: list[ParsedModule] = []
    for (source, shown, data), known in zip(files, facts):
        if isinstance(data, FileError):
            outcome: ParsedModule | FileError = data
        else:
            try:
                outcome = (
                    module_from_facts(source, shown, data, known)
                    if known is not None
                    else ParsedModule(source, shown, data=data, checked=False)
                )
            except Exception as error:  # noqa: BLE001 - one bad file must not end the audit
                message = f"cannot parse file: {type(error).__name__}: {error}"
                outcome = FileError(shown, 1, 1, message)
        if isinstance(outcome, FileError):
            # one line per error, whatever the exception text held (`path:line:col: E902 ...`)
            message = " ".join(outcome.message.split())
            result.errors.append(dataclasses.replace(outcome, message=message))
        else:
            parsed.append(outcome)
    return parsed


class _RecordingIndex(ProjectIndex):
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

    def _link_bases(self, cls: ClassInfo) -> None:
        recording: set[str] = set()
        self.recordings.append(recording)
        try:
            super()._link_bases(cls)
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


class _CachedEvaluations:
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
        index: _RecordingIndex,
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
        roles = {"device": device, "host": host}
        key = key_of(
            self.base_key,
            [
                [cls.module.path, cls.qualname] if cls is not None else None
                for cls in roles.values()
            ],
            _site_key(site),
        )
        stored = self._load(self.cache.get("evaluations", key), roles, site)
        if stored is not None:
            return stored
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
            return evaluation
        self.cache.put("evaluations", key, {"read": read, "errors": errors, "evaluation": body})
        return evaluation

    def _load(
        self, stored: object, roles: dict[str, ClassInfo | None], site: ConstructionSite | None
    ) -> Evaluation | None:
        if not isinstance(stored, dict) or set(stored) != {"read", "errors", "evaluation"}:
            return None
        read, errors = stored["read"], stored["errors"]
        if not isinstance(read, dict) or not isinstance(errors, list):
            return None
        if any(self.digests.get(path) != digest for path, digest in read.items()):
            return None  # a module it read has changed (or is gone)
        if any(m.rejected and m.display_path not in read for m in self.parsed):
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


def _site_key(site: ConstructionSite | None) -> list | None:
    """Everything of a construction site that its evaluation reads, as text: the same text in
    an unchanged module (its hash is in the entry's record) is the same site."""
    if site is None:
        return None
    return [
        site.host.module.path,
        site.host.qualname,
        list(site.signature()),
        str(site.location),
        site.function,
        site.device_text,
        sorted(site.local_names),
        site.via_record,
    ]
