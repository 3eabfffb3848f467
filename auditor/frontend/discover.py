"""Stage 1: find the Python files to audit, skipping VCS, virtualenv and build folders."""

from __future__ import annotations

import fnmatch
import functools
import os
import re
import shutil
import stat
import subprocess
from dataclasses import dataclass
from pathlib import Path

SKIPPED_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".venv",
        "venv",
        "env",
        ".env",
        ".tox",
        ".nox",
        "__pycache__",
        "build",
        "dist",
        "site-packages",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
        ".layout_audit_cache",
        "node_modules",
    }
)


@dataclass(frozen=True)
class SourceFile:
    """A file to audit: its path on disk, the root it was found under and its module name."""

    path: Path
    root: Path
    module: str


def _is_virtualenv(directory: Path) -> bool:
    return (directory / "pyvenv.cfg").is_file()


def _not_regular(path: Path) -> str | None:
    """Why `path` cannot be read as a source file (a pipe would block the reader), or None."""
    try:
        mode = path.stat().st_mode
    except OSError as error:  # broken symlink, symlink loop
        return error.strerror or str(error)
    return None if stat.S_ISREG(mode) else "not a regular file"


def module_name(path: Path, root: Path) -> str:
    """The dotted name Python would import `path` by.

    Inside a package (a folder with `__init__.py`), the name runs from the topmost package
    above it, even above `root`: auditing `sglang/srt/mem_cache` still names its files
    `sglang.srt.mem_cache.x`, so imports of `sglang.srt.utils` do not land on
    `mem_cache/utils.py`. Outside packages, the name is relative to `root`.
    """
    parts = [] if path.name == "__init__.py" else [path.stem]
    directory = path.parent
    if _is_package(directory):
        while _is_package(directory) and directory.parent != directory:
            parts.insert(0, directory.name)
            directory = directory.parent
        return ".".join(parts)
    relative = path.relative_to(root).with_suffix("")
    names = list(relative.parts)
    if names and names[-1] == "__init__":
        names.pop()
    return ".".join(names) if names else path.stem


@functools.lru_cache(maxsize=4096)
def _is_package(directory: Path) -> bool:
    return (directory / "__init__.py").is_file()


def _matches(path: Path, root: Path, patterns: tuple[str, ...]) -> bool:
    """ruff-style exclusion: a glob matching the name, or the path relative to the root."""
    if not patterns:
        return False
    try:
        relative = path.relative_to(root).as_posix()
    except ValueError:
        relative = path.as_posix()
    return _Patterns.of(patterns).match(path.name, relative)


class _Patterns:
    """Globs compiled once: names without wildcards are looked up in a set, the others are
    one regular expression (fnmatch's own translation). Called for every file and folder."""

    _compiled: dict[tuple[str, ...], _Patterns] = {}

    def __init__(self, patterns: tuple[str, ...]) -> None:
        # fnmatch compares case-insensitively where the OS does (os.path.normcase)
        self.fold = os.path.normcase("A") == "a"
        if self.fold:
            patterns = tuple(os.path.normcase(p) for p in patterns)
        self.literal = frozenset(p for p in patterns if not any(c in p for c in "*?["))
        globs = [p for p in patterns if p not in self.literal]
        self.regex = re.compile("|".join(fnmatch.translate(p) for p in globs)) if globs else None

    @classmethod
    def of(cls, patterns: tuple[str, ...]) -> _Patterns:
        compiled = cls._compiled.get(patterns)
        if compiled is None:
            compiled = cls._compiled[patterns] = cls(patterns)
        return compiled

    def match(self, name: str, relative: str) -> bool:
        if self.fold:
            name, relative = os.path.normcase(name), os.path.normcase(relative)
        if name in self.literal or relative in self.literal:
            return True
        regex = self.regex
        return regex is not None and (
            regex.match(name) is not None or regex.match(relative) is not None
        )


def _relative_text(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path.resolve())


def gitignored(root: Path, paths: list[Path]) -> set[Path]:
    """The paths under `root` that git ignores (.gitignore files, info/exclude, global excludes).

    Asks git itself, once per root, rather than re-implementing gitignore rules; outside a
    repository, or without git, nothing is ignored.
    """
    if not paths or shutil.which("git") is None:
        return set()
    # paths as given relative to the root (what `git -C root` resolves them against): no
    # resolve() per file; git echoes each ignored path back as it was given
    given = {os.fsencode(_relative_text(path, root)): path for path in paths}
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "check-ignore", "--stdin", "-z"],
            input=b"\0".join(given),
            capture_output=True,
            timeout=120,
        )
    except (OSError, subprocess.SubprocessError):
        return set()
    if done.returncode not in (0, 1):  # 128: not a git repository
        return set()
    return {given[item] for item in done.stdout.split(b"\0") if item in given}


def discover(
    paths: list[Path],
    exclude: tuple[str, ...] | None = None,
    extend_exclude: tuple[str, ...] = (),
    respect_gitignore: bool = False,
    include: tuple[str, ...] = ("*.py",),
) -> tuple[list[SourceFile], list[tuple[Path, str]]]:
    """Return the `.py` files under `paths`, sorted, and the paths that could not be read.

    `include` globs pick the files (on names or root-relative paths); `exclude` replaces the
    default skipped folders (SKIPPED_DIRS); `extend_exclude` adds to them. A file named directly is audited even if a skip rule would hide it, as ruff does.
    """
    patterns = tuple(SKIPPED_DIRS if exclude is None else exclude) + tuple(extend_exclude)
    found: dict[Path, SourceFile] = {}
    walked: dict[Path, list[Path]] = {}
    problems: list[tuple[Path, str]] = []
    for given in paths:
        if not given.exists():
            problems.append((given, "no such file or directory"))
            continue
        if not given.is_dir():
            why = _not_regular(given)
            if why is not None:
                problems.append((given, why))
                continue
            root = given.parent
            found.setdefault(given, SourceFile(given, root, module_name(given, root)))
            continue
        root = given
        seen_dirs: set[tuple[int, int]] = set()
        for directory, subdirs, files in os.walk(given, followlinks=False, onerror=None):
            current = Path(directory)
            try:
                status = current.stat()
                key = (status.st_dev, status.st_ino)
            except OSError as error:
                problems.append((current, error.strerror or str(error)))
                subdirs[:] = []
                continue
            if key in seen_dirs:
                subdirs[:] = []
                continue
            seen_dirs.add(key)
            subdirs[:] = sorted(
                d
                for d in subdirs
                if not _matches(current / d, root, patterns)
                and not d.endswith(".egg-info")
                and not _is_virtualenv(current / d)
            )
            for name in sorted(files):
                if _matches(current / name, root, include):
                    path = current / name
                    if _matches(path, root, patterns):
                        continue
                    why = _not_regular(path)
                    if why is not None:
                        problems.append((path, why))
                        continue
                    if path not in found:
                        found[path] = SourceFile(path, root, module_name(path, root))
                        walked.setdefault(root, []).append(path)
    if respect_gitignore:
        for root, files in walked.items():
            for path in gitignored(root, files):
                found.pop(path, None)
    return sorted(found.values(), key=lambda f: str(f.path)), problems
