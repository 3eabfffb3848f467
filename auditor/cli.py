"""Command line: `layout-audit [PATH ...]` (also `python -m auditor`)."""

from __future__ import annotations

import argparse
import gc
import os
import sys
from pathlib import Path
from typing import TextIO

from auditor import __version__
from auditor.checks import checks, selected
from auditor.incremental.cache import CACHE_DIR_NAME
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
  1  findings, or files that could not be read or parsed (reported as E902)
  2  usage, configuration or internal error
"""


def _checks_help() -> str:
    """The checks, from their modules, so `--help` lists what `--explain` can explain."""
    lines = [f"  {code}  {check.summary}" for code, check in checks().items()]
    return "checks (--explain CODE for details):\n" + "\n".join(lines) + "\n\n"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="layout-audit",
        description=DESCRIPTION,
        epilog=_checks_help() + EPILOG,
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
        help="list values the interpreter could not resolve",
    )
    parser.add_argument(
        "--show-pools", action="store_true", help="print every pool's buffers and their sizes"
    )
    parser.add_argument(
        "--show-pairs",
        action="store_true",
        help="list every host/device pair with its evidence (call site, guards, annotation)",
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
        help="worker processes for the per-file check (default: the CPUs; 1: none)",
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
    codes = [c.strip().upper() for c in text.split(",") if c.strip()]
    for code in codes:
        if code not in checks():
            parser.error(f"unknown code {code!r} (known: {', '.join(checks())})")
    return codes


def explain(code: str, out: TextIO) -> int:
    check = checks().get(code.upper())
    if check is None:
        sys.stderr.write(f"layout-audit: unknown code {code!r} (known: {', '.join(checks())})\n")
        return EXIT_ERROR
    out.write(f"{check.code} ({check.name}): {check.summary}\n\n{check.explanation}")
    return EXIT_CLEAN


def show_pools(result, out: TextIO) -> None:
    from auditor.evaluation.matrix import describe_value

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
    one object at a time (on a whole engine that teardown takes longer than the audit)."""
    code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        pass
    os._exit(code)


def main(argv: list[str] | None = None) -> int:
    try:
        return run(argv)
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
        if args.show_pairs:
            json_report.render(result, sys.stdout, show_pairs=True)
        else:
            json_report.render(result, sys.stdout)
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


def run(argv: list[str] | None = None) -> int:
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
    select, ignore = _codes(args.select, parser), _codes(args.ignore, parser)
    if select is not None:
        settings.select = select
    if ignore is not None:
        settings.ignore = ignore
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
    try:
        result = audit(paths, settings, cache=cache, jobs=args.jobs or default_jobs())
    except ConfigError as error:  # a dtype name checked only when a pool first needs it
        sys.stderr.write(f"layout-audit: error: {error}\n")
        return EXIT_ERROR
    except Exception as error:  # noqa: BLE001 - an internal error must still exit 2, not crash
        sys.stderr.write(f"layout-audit: internal error: {type(error).__name__}: {error}\n")
        return EXIT_ERROR
    finally:
        gc.enable()
    try:
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
    return EXIT_FINDINGS if result.findings or result.errors else EXIT_CLEAN
