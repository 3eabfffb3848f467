"""Stage 1: the files of one audit, their bytes, CPython's facts and their modules.

Everything later (the index, the cache's keys) starts from a Project: which files were found,
what each holds (bytes, or why it cannot be read), and CPython's facts for the files the
pre-filter kept (prefilter.py).
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from pathlib import Path

from auditor.frontend.discover import SourceFile, discover
from auditor.frontend.parse import FileError, ParsedModule, module_from_facts, read_source

# a file as read: its source, the path shown for it, its bytes or why it cannot be read
ReadFile = tuple[SourceFile, str, "bytes | FileError"]


@dataclass
class Project:
    """The files of one audit as read: what every later stage and cache level starts from."""

    sources: list[SourceFile]
    problems: list[tuple[Path, str]]  # paths that could not be listed, and why
    files: list[ReadFile]
    facts: list[dict | None]  # CPython's facts, for the files the pre-filter kept


def find_sources(paths: list[Path], settings) -> tuple[list[SourceFile], list[tuple[Path, str]]]:
    """The `.py` files under `paths` the settings include, and paths that could not be listed."""
    return discover(
        paths,
        exclude=tuple(settings.exclude) if settings.exclude is not None else None,
        extend_exclude=tuple(settings.extend_exclude),
        respect_gitignore=settings.respect_gitignore,
        include=tuple(settings.include),
    )


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


def read_file(source: SourceFile) -> ReadFile:
    """A file's bytes (the key of everything cached about it), or why it cannot be read."""
    shown = display_path(source.path)
    try:
        return source, shown, read_source(source, shown)
    except Exception as error:  # noqa: BLE001 - one bad file must not end the audit
        message = f"cannot read file: {type(error).__name__}: {error}"
        return source, shown, FileError(shown, 1, 1, message)


def modules(
    files: list[ReadFile], facts: list[dict | None]
) -> tuple[list[ParsedModule], list[FileError]]:
    """The ParsedModule of each file CPython accepts, and the errors of the others."""
    parsed: list[ParsedModule] = []
    errors: list[FileError] = []
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
            errors.append(dataclasses.replace(outcome, message=message))
        else:
            parsed.append(outcome)
    return parsed, errors
