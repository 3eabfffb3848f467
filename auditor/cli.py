"""Command line: `layout-audit [PATH ...]` (also `python -m auditor`)."""

from __future__ import annotations

import argparse
import gc
import os
import sys
from pathlib import Path
from typing import NoReturn, TextIO

from auditor import __version__, baseline
from auditor.baseline import BaselineError
from auditor.checks import checks, codes, selected
from auditor.incremental.cache import CACHE_DIR_NAME
from auditor.progress import ProgressLine
from auditor.settings import ConfigError, find_config, load_settings

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2

DESCRIPTION = """\
Audit LLM-serving KV-cache pools without running them: find host mirror pools whose buffers
disagree, byte for byte, with the device pools they copy (HiCache, disaggregated serving).

layout-audit reads the Python files under PATH (default: .), finds device pools (constructors
taking a token count and a layer count) and host pools (constructors taking a device pool or
its buffer-info record, or layouts a device pool declares in data), pairs them where the code
builds the host (isinstance dispatch, call-site arguments), evaluates every buffer's bytes per
token per layer with real torch dtype sizes over the rule pack's config matrix, and reports
disagreements with the config point and both formulas.
The audited code is never imported or executed.
"""

EPILOG = """\
examples:
  layout-audit fixtures/incident_buggy           audit a tree with the bundled SGLang pack
  layout-audit src/ --output-format json         machine-readable findings
  layout-audit src/ --show-unresolved            also list what could not be evaluated
  layout-audit --explain LA001                   what a check finds and how to fix it
  layout-audit src/ --table-html table.html      the sizes as a grid in an HTML page

configuration: [tool.layout-audit] in the nearest pyproject.toml above PATH, e.g.
  [tool.layout-audit]
  rule-packs = ["sglang"]          # bundled name or path to a TOML pack
  select = ["LA001"]
  exclude = ["tests/*"]
  [tool.layout-audit.parameters]
  tokens = ["num_tokens"]          # constructor parameter(s) holding the token count
  layers = ["num_layers"]
  [tool.layout-audit.matrix]
  page_size = [1, 16, 64]

exit codes:
  0  no findings
  1  findings, or files that could not be read or parsed (reported as E902); with
     --fail-on-uncompared, also pairs never compared and hosts never paired (or only sized
     by their device); with --fail-on-unresolved, also unresolved items
  2  usage, configuration or internal error
"""


def _checks_help() -> str:
    """The checks, from their modules, so `--help` lists what `--explain` can explain."""
    lines = [f"  {code}  {check.summary}" for code, check in checks().items()]
    return "checks (--explain CODE for details):\n" + "\n".join(lines) + "\n\n"


class _Parser(argparse.ArgumentParser):
    """argparse, with a usage error as one line (the README's promise), not the whole usage;
    the checks' list is added to the help when it is printed (it imports every check)."""

    def format_help(self) -> str:
        if self.epilog == EPILOG:
            self.epilog = _checks_help() + EPILOG
        return super().format_help()

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"layout-audit: error: {message} (see layout-audit --help)\n")
        sys.exit(EXIT_ERROR)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="layout-audit",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "paths", nargs="*", type=Path, metavar="PATH", help="files or folders (default: .)"
    )
    parser.add_argument(
        "--output-format",
        choices=["text", "json", "github", "sarif", "html"],
        default=None,
        help="text (default), json, github (workflow annotations), sarif (code scanning) or "
        "html (the layout table as an HTML page)",
    )
    parser.add_argument(
        "--show-unresolved",
        action="store_true",
        help="list values the interpreter could not resolve (json: an `unresolved` array)",
    )
    parser.add_argument(
        "--show-pools", action="store_true", help="print every pool's buffers and their sizes"
    )
    parser.add_argument(
        "--show-pairs",
        action="store_true",
        help="list every host/device pair with its evidence (call site, guards, annotation), "
        "and the classes left out: not a host pool, not audited (counts read off an object)",
    )
    parser.add_argument(
        "--table",
        action="store_true",
        help="after the findings, print each host/device pair's sizes as a grid",
    )
    parser.add_argument(
        "--table-html",
        type=Path,
        metavar="FILE",
        help="write the layout table as a self-contained HTML page to FILE",
    )
    parser.add_argument(
        "--config", type=Path, metavar="FILE", help="use this pyproject.toml or TOML file"
    )
    parser.add_argument("--isolated", action="store_true", help="ignore configuration files")
    parser.add_argument(
        "--rule-pack",
        action="append",
        metavar="NAME",
        help="rule pack name or TOML path (repeatable)",
    )
    parser.add_argument("--select", metavar="CODES", help="comma-separated codes to report")
    parser.add_argument("--ignore", metavar="CODES", help="comma-separated codes not to report")
    parser.add_argument(
        "--exit-zero", action="store_true", help="exit 0 even when there are findings"
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        metavar="FILE",
        help="report only findings not in this baseline (and its stale entries)",
    )
    parser.add_argument(
        "--write-baseline",
        type=Path,
        metavar="FILE",
        help="write the current findings to FILE as a baseline and exit 0",
    )
    parser.add_argument(
        "--fail-on-uncompared",
        action="store_true",
        default=None,
        help="exit 1 when a host/device pair was never compared at any config point, or a "
        "host pool was never paired (or only sized by its device)",
    )
    parser.add_argument(
        "--fail-on-unresolved",
        action="store_true",
        default=None,
        help="exit 1 when anything is unresolved (never-compared pairs included)",
    )
    parser.add_argument("--explain", metavar="CODE", help="explain a check and exit")
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help=f"neither read nor write the cache ({CACHE_DIR_NAME}/ at the project root)",
    )
    parser.add_argument(
        "--clean-cache",
        action="store_true",
        help="remove the cache folder and exit (also `layout-audit clean`, when no file or "
        "folder named clean exists)",
    )
    parser.add_argument(
        "--jobs",
        "-j",
        type=_jobs,
        metavar="N",
        help="worker processes for the per-file check and the evaluations (default: the CPUs; 1: none)",
    )
    parser.add_argument("--version", action="version", version=f"layout-audit {__version__}")
    return parser


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected 1 or more, got {value}")
    return value


def _codes(text: str | None, parser: argparse.ArgumentParser) -> list[str] | None:
    if text is None:
        return None
    given = [c.strip().upper() for c in text.split(",") if c.strip()]
    for code in given:
        if code not in codes():
            parser.error(f"unknown code {code!r} (known: {', '.join(codes())})")
    return given


def explain(code: str, out: TextIO) -> int:
    check = checks().get(code.upper())
    if code.upper() == "E902":  # not a check (it cannot be selected), but output names it
        from auditor.report import sarif

        out.write(
            f"{sarif.FILE_ERROR_CODE} ({sarif.FILE_ERROR_NAME}): {sarif.FILE_ERROR_SUMMARY}\n\n"
            f"{sarif.FILE_ERROR_EXPLANATION}"
        )
        return EXIT_CLEAN
    if check is None:
        sys.stderr.write(
            f"layout-audit: unknown code {code!r} (known: {', '.join(checks())}, E902)\n"
        )
        return EXIT_ERROR
    out.write(f"{check.code} ({check.name}): {check.summary}\n\n{check.explanation}")
    return EXIT_CLEAN


def show_pools(result, out: TextIO) -> None:
    from auditor.evaluation.matrix import describe_value

    title, last, same = None, None, 0
    for row in [*result.stage_rows, None]:  # the engines' own stages (vLLM: each KV spec)
        if row is not None and row.title == title and row.text == last:
            same += 1
            continue
        if same:
            out.write(f"    (the same at {same} more points)\n")
        if row is None:
            break
        if row.title != title:
            title = row.title
            out.write(f"{title}\n")
        out.write(f"  [{row.label}] {row.text}\n")
        last, same = row.text, 0

    for evaluation in result.evaluations:
        title = evaluation.device.name
        if evaluation.host is not None:
            title = f"{evaluation.host.name} <- {title}"
        out.write(
            f"{title}: {len(evaluation.points)} points, varied: {', '.join(evaluation.varied) or '-'}\n"
        )
        for point in evaluation.points:
            label = (
                ", ".join(f"{n}={describe_value(point.values[n])}" for n in evaluation.varied)
                or "base"
            )
            if point.infeasible is not None or point.failure is not None:
                why = point.infeasible.reason if point.infeasible else point.failure.reason
                out.write(f"  [{label}] skipped: {why}\n")
                continue
            for role, figures in (("device", point.device), ("host", point.host)):
                for name, figure in figures.items():
                    size = (
                        figure.arithmetic
                        if figure.resolved
                        else f"unresolved: {figure.unknown.reason}"
                    )
                    out.write(f"  [{label}] {role} {name}: {size}\n")


def _after_audit(result, settings, cache, paths: list[Path]) -> list[str]:
    """Warnings and notices the run itself gives: nothing found to audit, settings that
    changed nothing, a cache that could not be written."""
    lines = []
    if result.files_found == 0 and not result.errors:  # as ruff: a warning, not a failure
        shown = " ".join(str(p) for p in paths)
        lines.append(f"warning: no Python files found under {shown}")
    if result.evaluations and settings.project_dimensions:
        from auditor.evaluation.matrix import flag_dimension, switch_dimension, unread_settings

        read: set[str] = set()
        known = set(settings.__dict__["matrix"])  # (without resolving its dtypes)
        known |= {flag_dimension(n) for n in settings.flags}
        known |= {switch_dimension(n) for n in settings.switches}
        for evaluation in result.evaluations:
            read |= evaluation.reads
            for point in evaluation.points[:1]:
                known |= set(point.values)
        lines += [f"warning: {w}" for w in unread_settings(settings, read, known)]
    if cache.write_failures:
        lines.append(
            f"notice: cannot write the cache at {cache.directory}: {cache.write_error} "
            "(every run starts cold; --no-cache skips the cache)"
        )
    return lines


def write_baseline(path: Path, result) -> int:
    """`--write-baseline FILE`: every current finding becomes a known one."""
    try:
        baseline.write(path, result.findings)
    except BaselineError as error:
        sys.stderr.write(f"layout-audit: error: {error}\n")
        return EXIT_ERROR
    count = len(result.findings)
    sys.stderr.write(f"layout-audit: wrote {count} finding{'s' if count != 1 else ''} to {path}\n")
    return EXIT_CLEAN


def apply_baseline(path: Path, result, err: TextIO) -> None:
    """Drop the findings the baseline knows; say how many, and which entries are stale."""
    if path.is_absolute() and path.is_relative_to(Path.cwd()):  # shown as ruff shows paths
        path = path.relative_to(Path.cwd())
    known = baseline.load(path)
    result.findings, matched, stale = known.split(result.findings)
    err.write(
        f"layout-audit: baseline {path}: {matched} known finding{'s' if matched != 1 else ''} not shown\n"
    )
    if stale and result.errors:  # a file that could not be read hides what it would show
        err.write(
            f"layout-audit: baseline {path}: stale entries not checked while "
            f"{len(result.errors)} file{'s' if len(result.errors) != 1 else ''} could not be read\n"
        )
    elif stale:
        err.write(
            f"layout-audit: warning: baseline {path}: {len(stale)} stale "
            f"entr{'ies' if len(stale) != 1 else 'y'} (no longer found; rewrite it with "
            f"--write-baseline): {'; '.join(baseline.describe(e) for e in stale)}\n"
        )


def _exists(name: str) -> bool:
    return os.path.lexists(name)


def clean_cache(config: Path | None) -> int:
    """`layout-audit clean` / `--clean-cache`: remove the project's cache folder."""
    from auditor.incremental.cache import cache_root, clean

    directory = cache_root(str(config) if config else None)
    removed = clean(directory)
    sys.stdout.write(f"{'removed' if removed else 'no cache at'} {directory}\n")
    return EXIT_CLEAN


def entry() -> None:
    """Console-script entry: run, flush, and leave without tearing down every syntax tree
    one object at a time (on a whole engine that teardown takes longer than the audit); the
    cycle collector stays off until then (its first pass over the audit's objects took 5 s)."""
    code = main(leaving=True)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        pass
    os._exit(code)


EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a command ended by Ctrl-C


def main(argv: list[str] | None = None, leaving: bool = False) -> int:
    try:
        return run(argv, leaving)
    except KeyboardInterrupt:  # Ctrl-C: one line; cache writes are atomic, so it stays whole
        sys.stderr.write("layout-audit: interrupted\n")
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # `layout-audit ... | head`: stop quietly, as other CLI tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_ERROR


def _render(result, settings, args, output_format: str) -> bool:
    """Print the result in the chosen format; True when an output file could not be written."""
    from auditor.report import github, json_report, sarif, text

    grids = None
    if args.table or args.table_html or output_format == "html":
        from auditor.report import table

        grids = table.build(result, settings)
    if args.table_html is not None:
        try:
            with args.table_html.open("w", encoding="utf-8") as handle:
                table.render_html(grids, handle)
        except OSError as error:
            sys.stderr.write(
                f"layout-audit: error: cannot write --table-html {args.table_html}: "
                f"{error.strerror or error}\n"
            )
            return True
    if output_format == "html":
        table.render_html(grids, sys.stdout)
        text.summary(result, sys.stderr)
    elif output_format == "json":
        json_report.render(
            result, sys.stdout, show_pairs=args.show_pairs, show_unresolved=args.show_unresolved
        )
    elif output_format == "github":
        github.render(result, sys.stdout)
        text.summary(result, sys.stderr)
    elif output_format == "sarif":
        sarif.render(result, sys.stdout)
    else:
        text.render(result, sys.stdout, sys.stderr, args.show_unresolved)
    if args.show_pairs and output_format in ("text", "github"):
        text.render_pairs(result, sys.stdout)
    if args.show_pools:
        show_pools(result, sys.stdout)
    if args.table:
        sys.stdout.write("\n")
        table.render_text(grids, sys.stdout)
    return False


def run(argv: list[str] | None = None, leaving: bool = False) -> int:
    """The command; `leaving`: the process ends right after it (entry), so the cycle collector,
    off during the audit, is not turned back on."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.explain:
        return explain(args.explain, sys.stdout)
    cleaning = args.clean_cache or (args.paths == [Path("clean")] and not _exists("clean"))
    paths = [Path(".")] if cleaning or not args.paths else args.paths
    try:
        config = None if args.isolated else (args.config or find_config(paths))
        if cleaning:
            return clean_cache(config)
        settings = load_settings(config, args.rule_pack)
        selected(settings)  # the configuration's codes, before the command line's replace them
    except ConfigError as error:
        sys.stderr.write(f"layout-audit: error: {error}\n")
        return EXIT_ERROR
    for warning in settings.warnings:
        sys.stderr.write(f"layout-audit: warning: {warning}\n")
    select, ignore = _codes(args.select, parser), _codes(args.ignore, parser)
    if select is not None:
        settings.select = select
    if ignore is not None:
        settings.ignore = ignore
    if args.fail_on_uncompared:
        settings.fail_on_uncompared = True
    if args.fail_on_unresolved:
        settings.fail_on_unresolved = True
    output_format = args.output_format or settings.output_format
    if args.table and output_format not in ("text", "github"):
        sys.stderr.write(
            f"layout-audit: error: --table prints text; it cannot be mixed with "
            f"--output-format {output_format} (use --table-html FILE)\n"
        )
        return EXIT_ERROR
    from auditor.frontend.workers import default_jobs
    from auditor.incremental.cache import Cache, cache_root
    from auditor.pipeline import audit

    cache = Cache(None if args.no_cache else cache_root(settings.config_file))
    gc.disable()  # the audit allocates millions of short-lived acyclic nodes
    progress = ProgressLine(sys.stderr).start()
    interrupted = False
    try:
        result = audit(paths, settings, cache=cache, jobs=args.jobs or default_jobs())
    except KeyboardInterrupt:
        interrupted = True  # gc stays off: collecting the run's objects would delay the exit
        raise
    except ConfigError as error:  # a dtype name checked only when a pool first needs it
        sys.stderr.write(f"layout-audit: error: {error}\n")
        return EXIT_ERROR
    except Exception as error:  # noqa: BLE001 - an internal error must still exit 2, not crash
        sys.stderr.write(f"layout-audit: internal error: {type(error).__name__}: {error}\n")
        return EXIT_ERROR
    finally:
        progress.stop()
        if not interrupted and not leaving:
            gc.enable()
    for line in _after_audit(result, settings, cache, paths):
        sys.stderr.write(f"layout-audit: {line}\n")
    if args.write_baseline is not None:
        return write_baseline(args.write_baseline, result)
    baseline_file = args.baseline or (Path(settings.baseline) if settings.baseline else None)
    if baseline_file is not None:
        try:
            apply_baseline(baseline_file, result, sys.stderr)
        except BaselineError as error:
            sys.stderr.write(f"layout-audit: error: {error}\n")
            return EXIT_ERROR
    try:
        from auditor.report import text

        text.notice(result, sys.stderr)
        failed = _render(result, settings, args, output_format)
    except BrokenPipeError:
        raise
    except Exception as error:  # noqa: BLE001 - a renderer bug must still exit 2, not crash
        sys.stderr.write(f"layout-audit: internal error: {type(error).__name__}: {error}\n")
        return EXIT_ERROR
    if failed:
        return EXIT_ERROR
    if args.exit_zero:
        return EXIT_CLEAN
    if result.findings or result.errors:
        return EXIT_FINDINGS
    return EXIT_FINDINGS if _fails_on_coverage(result, settings, sys.stderr) else EXIT_CLEAN


def _fails_on_coverage(result, settings, err: TextIO) -> bool:
    """`fail-on-uncompared` / `fail-on-unresolved`: a run that left something unchecked is
    not a pass for teams that ask so; one line on stderr says why it fails."""
    never = len(result.coverage.uncompared)  # a pair the host refuses is not a pair to compare
    # (a host sized by its device is a reading of its syntax, not a comparison: it fails too)
    unpaired = len(result.coverage.unpaired) + len(result.coverage.by_device)
    if settings.fail_on_uncompared and (never or unpaired or not result.coverage.pairs):
        what = (
            f"{never} host/device pair{'s' if never != 1 else ''} never compared"
            if never
            else f"{unpaired} host pool{'s' if unpaired != 1 else ''} never paired or sized "
            "by its device"
            if result.coverage.by_device
            else f"{unpaired} host pool{'s' if unpaired != 1 else ''} never paired"
            if unpaired
            else "no host/device pair to compare"
        )
        err.write(f"layout-audit: failing: {what} (fail-on-uncompared)\n")
        return True
    unresolved = len(result.unresolved)
    if settings.fail_on_unresolved and unresolved:
        err.write(
            f"layout-audit: failing: {unresolved} unresolved item{'s' if unresolved != 1 else ''}"
            " (fail-on-unresolved; --show-unresolved lists them)\n"
        )
        return True
    return False
