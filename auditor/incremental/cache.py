"""The on-disk cache (`.layout_audit_cache/`): results keyed by what they were computed from.

The folder can arrive inside a stranger's pull request, so it holds JSON only (never pickle:
loading one runs code), every entry is checked on load (format, tool identity, its own key,
shape) and anything wrong with it is ignored and recomputed, never trusted and never a crash.
Writes go to a temporary file in the same folder, then `os.replace`: a reader sees a whole
entry or none, and two runs at once at worst both compute and write the same entry.

Every key holds the tool's identity (a hash of the auditor's own source files and rule packs,
and its version), so an edited auditor never reuses an entry written by another.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import hmac
import importlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from auditor import __version__, dtypes
from auditor.dtypes import dtype_name, is_dtype, is_torch_dtype
from auditor.interpret.values import StandInSample

CACHE_DIR_NAME = ".layout_audit_cache"
FORMAT = 1  # bump when the layout of entries changes
CACHEDIR_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by layout-audit.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n"
)
MAX_FACTS = 100_000  # per-file entries kept in the facts file (a few trees' worth)
MAX_ENTRIES = 32  # whole results kept, the most recently written (evaluations: 32 times as many)
PACKAGE_DIR = Path(__file__).resolve().parent.parent  # the auditor package


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def key_of(*parts: Any) -> str:
    """A key from JSON-able parts (their JSON text, hashed)."""
    text = json.dumps(parts, sort_keys=True, default=repr, ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


@functools.cache
def tool_identity() -> str:
    """A hash of the auditor's own code and bundled rule packs, and its version."""
    digest = hashlib.sha256(f"layout-audit {__version__} format {FORMAT}\n".encode())
    roots = [PACKAGE_DIR, PACKAGE_DIR.parent / "rules"]
    for root in roots:
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            if path.suffix in (".py", ".toml") and path.is_file():
                digest.update(str(path.relative_to(root)).encode() + b"\0")
                digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


@functools.cache
def torch_version() -> str:
    """torch's version, read from its metadata (no import): dtype sizes come from torch."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("torch")
    except PackageNotFoundError:
        return "none"


def _seal(body: bytes) -> bytes:
    """An HMAC of an entry with this user's secret: entries planted by anyone else (a cache
    folder committed to a pull request) fail it and are ignored."""
    return hmac.new(_secret(), body, hashlib.sha256).hexdigest().encode()


@functools.cache
def _secret() -> bytes:
    """32 random bytes kept outside any project (`$XDG_CACHE_HOME/layout-audit/secret`, else
    `~/.cache/...`), made on first use; if it can be neither read nor made, a secret for this
    run only (the cache then only ever finds what this run wrote)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = Path(base) / "layout-audit" / "secret"
    try:
        data = path.read_bytes()
        if len(data) >= 32:
            return data
    except OSError:
        pass
    fresh = os.urandom(32)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(handle, "wb") as out:
            out.write(fresh)
        return fresh
    except FileExistsError:  # another run made it first
        try:
            data = path.read_bytes()
            return data if len(data) >= 32 else fresh
        except OSError:
            return fresh
    except OSError:
        return fresh


CACHE_ROOT_ENV = "LAYOUT_AUDIT_CACHE_ROOT"  # a folder to hold the cache folder instead


def cache_root(config_file: str | None) -> Path:
    """The cache folder: at the project root (the config file's folder, else the current
    directory), or in the folder $LAYOUT_AUDIT_CACHE_ROOT names (CI, and the tests, keep
    caches out of the audited tree that way)."""
    override = os.environ.get(CACHE_ROOT_ENV)
    if override:
        return Path(override) / CACHE_DIR_NAME
    base = Path(config_file).resolve().parent if config_file else Path.cwd()
    return base / CACHE_DIR_NAME


def clean(directory: Path) -> bool:
    """Remove a cache folder; True if there was one. Only a folder named like ours is removed."""
    if directory.name != CACHE_DIR_NAME or not directory.is_dir() or directory.is_symlink():
        return False
    shutil.rmtree(directory, ignore_errors=True)
    return True


class Cache:
    """Entries in one cache folder; `Cache(None)` is a disabled cache that finds nothing."""

    def __init__(self, directory: Path | None) -> None:
        self.directory = directory
        self.hits = 0
        self.misses = 0
        self.write_failures = 0
        self.write_error = ""  # why the first failed write failed (the CLI's notice says it)

    @property
    def enabled(self) -> bool:
        return self.directory is not None

    def _path(self, kind: str, key: str) -> Path:
        assert self.directory is not None
        return self.directory / kind / f"{key}.json"

    def get(self, kind: str, key: str) -> Any | None:
        """The value stored under `key`, or None (absent, unreadable, or not a valid entry)."""
        if self.directory is None:
            return None
        value = _read_entry(self._path(kind, key), key)
        if value is None:
            self.misses += 1
        else:
            self.hits += 1
        return value

    def put(self, kind: str, key: str, value: Any) -> None:
        if self.directory is None:
            return
        entry = {"format": FORMAT, "tool": tool_identity(), "key": key, "value": value}
        self._write(self._path(kind, key), entry)
        self._prune(kind)

    def _prune(self, kind: str) -> None:
        """Keep the newest entries of a kind (every edit makes new keys), so the folder stays
        the size of a few runs."""
        assert self.directory is not None
        try:
            found = [(p.stat().st_mtime, p) for p in (self.directory / kind).glob("*.json")]
            keep = MAX_ENTRIES if kind == "results" else 32 * MAX_ENTRIES
            for _, stale in sorted(found, reverse=True)[keep:]:
                stale.unlink()
        except OSError:
            pass  # another run pruned it first

    def _write(self, path: Path, entry: Any) -> None:
        """Atomic: a temporary file in the same folder, then os.replace. Failures are quiet
        (a read-only checkout still gets its audit, only slower next time)."""
        try:
            self._prepare()
            path.parent.mkdir(parents=True, exist_ok=True)
            body = json.dumps(entry, separators=(",", ":"), allow_nan=False).encode()
            handle, temporary = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(_seal(body) + b"\n" + body)
                os.replace(temporary, path)
            except BaseException:
                with _quiet():
                    os.unlink(temporary)
                raise
        except (OSError, ValueError, TypeError) as error:
            self.write_failures += 1
            if not self.write_error:
                self.write_error = getattr(error, "strerror", None) or str(error)

    def _prepare(self) -> None:
        assert self.directory is not None
        self.directory.mkdir(parents=True, exist_ok=True)
        for name, text in (("CACHEDIR.TAG", CACHEDIR_TAG), (".gitignore", "*\n")):
            marker = self.directory / name
            if not marker.exists():
                marker.write_text(text, encoding="utf-8")

    # Per-file facts live in one file per tool identity: thousands of small entries would cost
    # more to open than to recompute.
    def _facts_path(self) -> Path:
        assert self.directory is not None
        return self.directory / f"facts-{tool_identity()[:24]}.json"

    def load_facts(self) -> dict[str, Any]:
        """{content hash: facts} written by earlier runs of this tool (unchecked values: the
        caller validates each one it uses)."""
        if self.directory is None:
            return {}
        table = _read_entry(self._facts_path(), "facts")
        return table if isinstance(table, dict) else {}

    def save_facts(self, used: dict[str, Any], previous: dict[str, Any]) -> None:
        """Store this run's facts with earlier ones (the newest first, up to MAX_FACTS)."""
        if self.directory is None:
            return
        merged = dict(used)
        for digest, facts in previous.items():
            if len(merged) >= MAX_FACTS:
                break
            merged.setdefault(digest, facts)
        if merged == previous:
            return
        entry = {"format": FORMAT, "tool": tool_identity(), "key": "facts", "value": merged}
        self._write(self._facts_path(), entry)


class _quiet:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        return exc[0] is not None and issubclass(exc[0], OSError)


def _read_entry(path: Path, key: str) -> Any | None:
    try:
        if not path.is_file():
            return None
        data = path.read_bytes()
        seal, _, body = data.partition(b"\n")
        if not hmac.compare_digest(seal, _seal(body)):
            return None  # not written by this user on this machine (or damaged)
        entry = json.loads(body)
    except (OSError, ValueError, RecursionError):  # unreadable, truncated, not JSON, not UTF-8
        return None
    if (
        not isinstance(entry, dict)
        or entry.get("format") != FORMAT
        or entry.get("tool") != tool_identity()
        or entry.get("key") != key
        or "value" not in entry
    ):
        return None
    return entry["value"]


# --- results as JSON -------------------------------------------------------------------------
#
# A generic round trip for the auditor's dataclasses: every field of every dataclass is written
# and, on reading, exactly the same fields must be there (a field added to a result class makes
# old entries invalid rather than silently dropped). Classes are looked up in the auditor's own
# modules only. Audited classes (ClassInfo) become references: stand-ins carrying their name,
# qualified name and location in a stored result, or the live class again when an evaluation
# is read back into a running audit.


class NotCacheable(Exception):
    """A value the JSON form cannot hold: the result is not cached (and is still correct)."""


class InvalidEntry(Exception):
    """A stored value of the wrong shape: ignored, and recomputed."""


@dataclasses.dataclass(frozen=True)
class CachedModule:
    name: str
    path: str


@dataclasses.dataclass(eq=False)
class CachedClass:
    """An audited class as a stored result needs it: names and where it is."""

    name: str
    qualname: str
    location: Any
    module: CachedModule

    def __repr__(self) -> str:
        return f"<class {self.qualname}>"


class Encoder:
    """Turns a result into JSON-able data. `class_ref(cls)` may name a live class instead of
    storing a stand-in; returning None stores the stand-in."""

    def __init__(self, class_ref: Callable[[Any], str | None] | None = None) -> None:
        self.classes: list[Any] = []
        self._class_ids: dict[int, int] = {}
        self._class_ref = class_ref

    def encode(self, value: Any, depth: int = 0) -> Any:
        if depth > 200:
            raise NotCacheable("nested too deeply")
        kind = type(value)
        if value is None or kind in (bool, int, str):
            return value
        if kind is StandInSample:  # a sample standing for a value of unknown type, as such
            return {"$sample": int(value)}
        if kind is float:
            if value != value or value in (float("inf"), float("-inf")):
                return {"$float": repr(value)}
            return value
        if kind is list:
            return [self.encode(item, depth + 1) for item in value]
        if kind is tuple:
            return {"$tuple": [self.encode(item, depth + 1) for item in value]}
        if kind in (set, frozenset):
            items = sorted((self.encode(item, depth + 1) for item in value), key=repr)
            return {"$frozenset" if kind is frozenset else "$set": items}
        if kind is dict:
            return {
                "$dict": [
                    [self.encode(k, depth + 1), self.encode(v, depth + 1)] for k, v in value.items()
                ]
            }
        if is_dtype(value) or is_torch_dtype(value):
            return {"$dtype": dtype_name(value)}
        if hasattr(kind, "stored_form"):  # stored without what only the audit holds (sites.py)
            value = value.stored_form()
        if _is_class_info(value):
            return {"$class": self._class(value, depth)}
        from auditor.interpret.control import Infeasible
        from auditor.location import Location

        if kind is Infeasible:
            return {
                "$infeasible": [
                    self.encode(value.reason),
                    self.encode(value.location, depth + 1),
                    self.encode(value.chosen),
                    self.encode(value.raised),
                ]
            }
        if isinstance(value, enum.Enum) and kind.__module__.startswith("auditor."):
            return {"$enum": [f"{kind.__module__}:{kind.__qualname__}", value.name]}
        if isinstance(value, Location) and kind is not Location:  # a lazily resolved Location
            value = Location(value.path, value.line, value.column, value.end_line, value.end_column)
            kind = Location
        if dataclasses.is_dataclass(value) and kind.__module__.startswith("auditor."):
            fields = {
                f.name: self.encode(getattr(value, f.name), depth + 1)
                for f in dataclasses.fields(value)
            }
            return {"$data": f"{kind.__module__}:{kind.__qualname__}", "fields": fields}
        raise NotCacheable(f"cannot store a {kind.__module__}.{kind.__qualname__}")

    def _class(self, cls: Any, depth: int) -> int:
        known = self._class_ids.get(id(cls))
        if known is not None:
            return known
        reference = self._class_ref(cls) if self._class_ref else None
        if reference is not None:
            stored: Any = {"ref": reference}
        else:
            stored = {
                "name": cls.name,
                "qualname": cls.qualname,
                "module": cls.module.name,
                "path": cls.module.path,
                "location": self.encode(cls.location, depth + 1),
            }
        self._class_ids[id(cls)] = len(self.classes)
        self.classes.append(stored)
        return self._class_ids[id(cls)]


def _is_class_info(value: Any) -> bool:
    from auditor.frontend.index import ClassInfo

    return type(value) is ClassInfo or type(value) is CachedClass


def dump(value: Any, class_ref: Callable[[Any], str | None] | None = None) -> dict:
    """`value` as JSON-able data; raises NotCacheable for what JSON cannot hold."""
    encoder = Encoder(class_ref)
    body = encoder.encode(value)
    return {"classes": encoder.classes, "value": body}


def _auditor_type(name: str, what: str) -> Any:
    """One of the auditor's own types, by `module:qualname` as stored; nothing else is made."""
    module_name, _, qualname = name.partition(":")
    if not module_name.startswith("auditor.") or not qualname.isidentifier():
        raise InvalidEntry(f"{what} {name!r} is not the auditor's")
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        raise InvalidEntry(f"no module {module_name}") from None
    kind = getattr(module, qualname, None)
    if not isinstance(kind, type):
        raise InvalidEntry(f"{name} is not a {what}")
    return kind


def _enum_member(stored: list) -> Any:
    """A member of one of the auditor's enums, by module, class and member name."""
    name, member = stored
    if not isinstance(name, str) or not isinstance(member, str):
        raise InvalidEntry("enum")
    kind = _auditor_type(name, "enum")
    if not issubclass(kind, enum.Enum) or member not in kind.__members__:
        raise InvalidEntry(f"{name}.{member} is not an enum member")
    return kind[member]


class Decoder:
    def __init__(self, classes: Any, resolve: Callable[[str], Any] | None = None) -> None:
        if not isinstance(classes, list):
            raise InvalidEntry("classes")
        self._stored = classes
        self._classes: dict[int, Any] = {}
        self._resolve = resolve

    def decode(self, data: Any, depth: int = 0) -> Any:
        if depth > 200:
            raise InvalidEntry("nested too deeply")
        kind = type(data)
        if data is None or kind in (bool, int, str, float):
            return data
        if kind is list:
            return [self.decode(item, depth + 1) for item in data]
        if kind is not dict or len(data) not in (1, 2):
            raise InvalidEntry(f"unexpected {kind.__name__}")
        if "$data" in data:
            return self._dataclass(data, depth)
        if len(data) != 1:
            raise InvalidEntry("unexpected object")
        ((tag, body),) = data.items()
        if tag == "$tuple":
            return tuple(self.decode(item, depth + 1) for item in _list(body))
        if tag == "$set":
            return {self.decode(item, depth + 1) for item in _list(body)}
        if tag == "$frozenset":
            return frozenset(self.decode(item, depth + 1) for item in _list(body))
        if tag == "$dict":
            result = {}
            for pair in _list(body):
                if not isinstance(pair, list) or len(pair) != 2:
                    raise InvalidEntry("dict item")
                result[self.decode(pair[0], depth + 1)] = self.decode(pair[1], depth + 1)
            return result
        if tag == "$sample":
            if type(body) is not int:
                raise InvalidEntry("sample")
            return StandInSample(body)
        if tag == "$float":
            if body not in ("nan", "inf", "-inf"):
                raise InvalidEntry("float")
            return float(body)
        if tag == "$dtype":
            if not isinstance(body, str) or not body.isidentifier():
                raise InvalidEntry("dtype")
            if dtypes.facts_known() and dtypes.dtype_by_name(body) != dtypes.TorchDtype(body):
                raise InvalidEntry("dtype")  # not a dtype of this torch by its own name
            return dtypes.TorchDtype(body)  # its facts are read when first asked for
        if tag == "$class":
            return self._class(body, depth)
        if tag == "$infeasible":
            from auditor.interpret.control import Infeasible

            reason, location, chosen, raised = _list(body, 4)
            if not isinstance(reason, str) or not all(
                isinstance(v, (str, type(None))) for v in (chosen, raised)
            ):
                raise InvalidEntry("infeasible")
            return Infeasible(reason, self.decode(location, depth + 1), chosen, raised)
        if tag == "$enum":
            return _enum_member(_list(body, 2))
        raise InvalidEntry(f"unknown tag {tag!r}")

    def _dataclass(self, data: dict, depth: int) -> Any:
        name, fields = data.get("$data"), data.get("fields")
        if not isinstance(name, str) or not isinstance(fields, dict):
            raise InvalidEntry("dataclass")
        kind = _auditor_type(name, "class")
        if not dataclasses.is_dataclass(kind):
            raise InvalidEntry(f"{name} is not a dataclass")
        expected = [f.name for f in dataclasses.fields(kind)]
        if sorted(expected) != sorted(fields):
            raise InvalidEntry(f"{name}: fields {sorted(fields)} instead of {sorted(expected)}")
        instance = object.__new__(kind)
        for field_name in expected:
            object.__setattr__(instance, field_name, self.decode(fields[field_name], depth + 1))
        return instance

    def _class(self, index: Any, depth: int) -> Any:
        if type(index) is not int or not 0 <= index < len(self._stored):
            raise InvalidEntry("class reference")
        if index in self._classes:
            return self._classes[index]
        stored = self._stored[index]
        if not isinstance(stored, dict):
            raise InvalidEntry("class")
        if "ref" in stored:
            found = self._resolve(stored["ref"]) if self._resolve else None
            if found is None:
                raise InvalidEntry(f"class {stored['ref']!r} is not in the audit")
        else:
            texts = [stored.get(k) for k in ("name", "qualname", "module", "path")]
            if not all(isinstance(t, str) for t in texts):
                raise InvalidEntry("class")
            name, qualname, module, path = texts
            location = self.decode(stored.get("location"), depth + 1)
            found = CachedClass(name, qualname, location, CachedModule(module, path))
        self._classes[index] = found
        return found


def _list(body: Any, length: int | None = None) -> list:
    if not isinstance(body, list) or (length is not None and len(body) != length):
        raise InvalidEntry("list")
    return body


def load(data: Any, resolve: Callable[[str], Any] | None = None) -> Any:
    """What `dump` stored; raises InvalidEntry for anything not of its shape."""
    if not isinstance(data, dict) or set(data) != {"classes", "value"}:
        raise InvalidEntry("entry")
    try:
        return Decoder(data["classes"], resolve).decode(data["value"])
    except (TypeError, ValueError, AttributeError, RecursionError) as error:
        raise InvalidEntry(str(error)) from None


def settings_fingerprint(settings: Any) -> Any:
    """The settings as JSON data, for keys: dtypes by name, without resolving any (reading a
    dtype setting would import torch)."""
    from auditor.settings import DtypeName

    def plain(value: Any) -> Any:
        if isinstance(value, DtypeName) or is_dtype(value) or is_torch_dtype(value):
            name = value.name if isinstance(value, DtypeName) else dtype_name(value)
            return {"dtype": name.removeprefix("torch.")}
        if isinstance(value, dict):
            return {"dict": [[plain(k), plain(v)] for k, v in value.items()]}
        if isinstance(value, (list, tuple, set, frozenset)):
            items = [plain(item) for item in value]
            return sorted(items, key=repr) if isinstance(value, (set, frozenset)) else items
        if value is None or isinstance(value, (bool, int, float, str)):
            return value
        if dataclasses.is_dataclass(value):
            return {type(value).__name__: plain(vars(value))}
        return repr(value)

    # what only the report uses (a baseline file, warnings already printed) keys nothing
    ignored = {"baseline", "warnings"}
    return plain(dict(sorted((k, v) for k, v in vars(settings).items() if k not in ignored)))
