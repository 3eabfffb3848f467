"""How fast is a whole-tree audit, cold and warm, next to ruff, and how fast is a pre-commit run?

    python bench/speed.py                         # sglang 0.5.23 (4,719 files), 3 runs each
    python bench/speed.py path/to/sglang/srt -n 5
    python bench/speed.py path/to/tree --stages       # also the time of each stage
    python bench/speed.py path/to/tree --profile 25   # also the top functions of one run
    python bench/speed.py --markdown docs/speed.md    # the tables as Markdown, to a file

Every command runs in a child process started by a small wrapper process, so that the wall
time is the child's and the peak RSS (the wrapper's `RUSAGE_CHILDREN`: the largest of that
child and its worker processes) is that run's alone. The tree is copied to a temporary folder
first (the pre-commit rows edit files in it; its cache goes there), and the auditor's bytecode
is compiled there first, as an installed copy has it. The rows:

- whole tree: layout-audit cold (empty cache), with `--no-cache`, and warm (nothing changed),
  `ruff check --no-cache` on the same files (ruff is a development dependency only), ratios;
- pre-commit: the hook audits the whole repository with the cache of the previous commit, so
  the whole tree after one edited file without a pool class, and after one edited host-pool
  file; also one file without a pool class audited alone; beside `python -c "import torch"`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# the whole `sglang` package of 0.5.23 as bench/corpus.py unpacks it (`python bench/corpus.py
# 0.5.23`); it is copied to a temporary folder before each bench, so its being gitignored here
# does not matter
DEFAULT_TREE = REPO / "bench" / ".cache" / "0.5.23" / "sglang"

# Runs `argv` once and prints {"seconds": wall, "rss_kb": peak RSS of that child}.
WRAPPER = """
import json, resource, subprocess, sys, time
started = time.perf_counter()
done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
seconds = time.perf_counter() - started
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"seconds": seconds, "rss_kb": rss, "code": done.returncode,
                  "stderr": done.stderr.decode(errors="replace")[-2000:]}))
"""


def run_once(argv: list[str], cwd: Path | None = None) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", WRAPPER, *argv], capture_output=True, text=True, check=True, cwd=cwd
    )
    return json.loads(done.stdout)


def measure(argv: list[str], runs: int, cwd: Path | None = None, before=None) -> dict:
    """Median of `runs` runs of `argv`; `before()` runs (untimed) before each."""
    outcomes = []
    for _ in range(runs):
        if before is not None:
            before()
        outcomes.append(run_once(argv, cwd))
    seconds = [o["seconds"] for o in outcomes]
    return {
        "median": statistics.median(seconds),
        "min": min(seconds),
        "rss_mb": max(o["rss_kb"] for o in outcomes) / 1024,
        "runs": runs,
        "code": outcomes[-1]["code"],
        "stderr": outcomes[-1]["stderr"],
    }


def audit_command(*paths: Path, options: tuple[str, ...] = ()) -> list[str]:
    return [sys.executable, "-m", "auditor", "--isolated", *options, *map(str, paths)]


def host_pool_file(tree: Path) -> Path | None:
    """The first file (by name) defining a class whose `__init__` takes `device_pool`."""
    for path in sorted(tree.rglob("*.py")):
        if b"device_pool" in path.read_bytes() and b"class " in path.read_bytes():
            return path
    return None


class Editor:
    """Appends a different comment to a file before each run: a new commit's content."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.count = 0

    def __call__(self) -> None:
        self.count += 1
        with self.path.open("a") as handle:
            handle.write(f"\n# edited by bench/speed.py {self.count}\n")


def ruff_command(tree: Path) -> list[str] | None:
    ruff = shutil.which("ruff") or shutil.which("ruff", path=str(Path(sys.executable).parent))
    return [ruff, "check", "--no-cache", "--exit-zero", "--quiet", str(tree)] if ruff else None


def file_without_pools(tree: Path) -> Path | None:
    """The largest file of the tree that no pool class can be in: none of the bundled pack's
    layer-count or device-pool parameter names appear in it (see prefilter.outline_rule)."""
    sys.path.insert(0, str(REPO))
    from auditor.settings import load_settings

    settings = load_settings(None)
    words = [w.encode() for w in (*settings.layer_params, *settings.device_pool_params)]
    best: tuple[int, Path] | None = None
    for path in sorted(tree.rglob("*.py")) if tree.is_dir() else [tree]:
        data = path.read_bytes()
        if not any(word in data for word in words) and (best is None or len(data) > best[0]):
            best = (len(data), path)
    return best[1] if best else None


def summary_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.startswith("Found ")]
    return lines[-1] if lines else stderr.strip().splitlines()[-1] if stderr.strip() else ""


def table(rows: list[tuple[str, dict]], reference: dict | None) -> list[str]:
    out = [
        "| command | runs | median wall | fastest | peak RSS | vs. first row |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for label, row in rows:
        ratio = f"{row['median'] / reference['median']:.2f}x" if reference else "-"
        out.append(
            f"| {label} | {row['runs']} | {row['median']:.2f} s | {row['min']:.2f} s "
            f"| {row['rss_mb']:.0f} MB | {ratio} |"
        )
    return out


def profile(tree: Path, top: int) -> list[str]:
    """The top functions (own time, then cumulative) of one in-process audit, gc off as in
    the CLI. Work done on a fresh stack (modules indexed on first need, positions) runs in
    short-lived threads that cProfile does not follow: it shows as `lock.acquire`."""
    import cProfile
    import gc
    import io
    import pstats

    sys.path.insert(0, str(REPO))
    from auditor.pipeline import audit
    from auditor.settings import load_settings

    settings = load_settings(None)
    profiler = cProfile.Profile()
    gc.disable()
    try:
        profiler.runcall(audit, [tree], settings)
    finally:
        gc.enable()
    lines = []
    for order, restriction in (("tottime", ()), ("cumulative", ("/auditor/",))):
        text = io.StringIO()
        stats = pstats.Stats(profiler, stream=text)
        stats.sort_stats(order).print_stats(*restriction, top)
        body = text.getvalue()
        body = body[body.index("ncalls") :] if "ncalls" in body else body
        prefix = os.path.dirname(os.path.dirname(os.__file__))
        title = f"By {order}" + (" (auditor's own functions)" if restriction else "")
        body = body.replace(prefix, "<python>").replace(str(REPO) + os.sep, "")
        lines += [f"{title}:", "", "```", body.rstrip(), "```", ""]
    return lines


def stages(tree: Path) -> list[str]:
    """Wall time per stage of one in-process audit (gc off, as in the CLI), by wrapping the
    engine's stage functions; libcst work is also totalled wherever it happened."""
    import gc
    import time

    sys.path.insert(0, str(REPO))
    import auditor.frontend.parse as parse
    import auditor.frontend.project as project
    import auditor.incremental.evaluations as evaluations
    import auditor.incremental.results as results
    import auditor.pipeline as engine
    import auditor.stages as stages
    from auditor.evaluation.evaluate import PoolEvaluator
    from auditor.settings import load_settings

    spent: dict[str, float] = {}
    calls: dict[str, int] = {}

    def timed(label: str, function):
        def wrapper(*args, **kwargs):
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent[label] = spent.get(label, 0.0) + time.perf_counter() - started
                calls[label] = calls.get(label, 0) + 1

        return wrapper

    patches = [
        (project, "discover", "1 discover"),
        (engine, "read_file", "2 read files (read_file)"),
        (results, "checked_facts", "3 pre-filter, CPython check (checked_facts, workers)"),
        (engine, "modules", "3b modules from the facts (modules)"),
        (engine, "outline_rule", "4 outline rule (outline_rule)"),
        (evaluations, "RecordingIndex", "5 index, up-front modules"),
        (stages, "catalog", "6 catalog (pairing)"),
        (PoolEvaluator, "evaluate", "7 evaluate pools (interpreter)"),
        (stages, "suppressions_in", "8 suppressions"),
        (parse, "_libcst_parse", " libcst parse, wherever"),
        (parse, "_resolve_positions", " libcst positions, wherever"),
    ]
    saved = [(owner, name, getattr(owner, name)) for owner, name, _ in patches]
    checked: list[int] = []
    facts_of = results.checked_facts

    def counted_facts(*args, **kwargs):
        facts = facts_of(*args, **kwargs)
        checked.append(sum(1 for known in facts if known is not None))
        return facts

    results.checked_facts = counted_facts
    for owner, name, label in patches:
        setattr(owner, name, timed(label, getattr(owner, name)))
    settings = load_settings(None)
    gc.disable()
    try:
        started = time.perf_counter()
        from auditor.frontend.workers import default_jobs

        result = engine.audit([tree], settings, jobs=default_jobs())
        total = time.perf_counter() - started
    finally:
        gc.enable()
        for owner, name, value in saved:
            setattr(owner, name, value)
    lines = ["| stage | calls | wall |", "|---|---:|---:|"]
    for _, _, label in patches:
        if label.startswith(" "):
            continue
        lines.append(f"| {label} | {calls.get(label, 0)} | {spent.get(label, 0.0):.2f} s |")
    lines.append(f"| whole audit | 1 | {total:.2f} s |")
    for _, _, label in patches:
        if label.startswith(" "):
            name = label.strip().removesuffix(", wherever")
            lines.append(
                f"| of which {name} | {calls.get(label, 0)} | {spent.get(label, 0.0):.2f} s |"
            )
    lines += [
        "",
        f"{result.files_found} files found, {result.files_read} read and searched, "
        f"{sum(checked)} checked by CPython's parser up front (the pre-filter's choice; more "
        f"may be checked when first needed), {result.files_indexed} parsed with libcst.",
        "",
    ]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("tree", nargs="?", type=Path, help=f"default: {DEFAULT_TREE}")
    parser.add_argument("-n", "--runs", type=int, default=3, help="runs per command (median)")
    parser.add_argument("--profile", type=int, metavar="N", help="print the top N functions")
    parser.add_argument("--stages", action="store_true", help="print the time of each stage")
    parser.add_argument("--markdown", type=Path, metavar="FILE", help="also write to FILE")
    args = parser.parse_args(argv)
    given = args.tree or DEFAULT_TREE
    if not given.is_dir():
        parser.error(f"{given} is not a folder; give a tree to audit")
    work = Path(tempfile.mkdtemp(prefix="layout-audit-bench-"))
    try:
        return bench(given, work, args)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def compile_auditor(work: Path) -> None:
    """The auditor's bytecode, compiled once into the temporary folder for every child, as an
    installed copy has it (pip compiles on install). Where PYTHONDONTWRITEBYTECODE is set (as
    on the shared machines), a child would otherwise compile every module it imports each
    time: about 0.2 s, most of a run over one file."""
    os.environ["PYTHONPYCACHEPREFIX"] = str(work / "bytecode")
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "auditor")], check=True)


def bench(given: Path, work: Path, args: argparse.Namespace) -> int:
    compile_auditor(work)
    tree = work / given.name
    shutil.copytree(given, tree)
    files = sum(1 for _ in tree.rglob("*.py"))
    report = [
        f"Tree: `{given}` ({files} Python files), copied to a temporary folder; "
        f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, shared with other work "
        "(figures vary between runs; medians of several); the auditor's bytecode compiled "
        "first, as an installed copy has it.",
        "",
    ]
    cache = work / ".layout_audit_cache"

    def clean() -> None:
        shutil.rmtree(cache, ignore_errors=True)

    name = tree.name
    cold = measure(audit_command(tree), args.runs, work, before=clean)
    rows = [(f"`layout-audit {name}`, cold (empty cache)", cold)]
    rows.append(
        (
            f"`layout-audit --no-cache {name}`",
            measure(audit_command(tree, options=("--no-cache",)), args.runs, work),
        )
    )
    rows.append(
        (
            f"`layout-audit --no-cache -j 1 {name}` (no workers)",
            measure(audit_command(tree, options=("--no-cache", "-j", "1")), args.runs, work),
        )
    )
    run_once(audit_command(tree), work)  # fill the cache
    warm = measure(audit_command(tree), args.runs, work)
    rows.append((f"`layout-audit {name}`, warm (nothing changed)", warm))
    ruff = ruff_command(tree)
    ruff_row = measure(ruff, args.runs, work) if ruff is not None else None
    if ruff_row is not None:
        rows.append((f"`ruff check --no-cache {name}`", ruff_row))
    report += ["**Whole tree**", "", *table(rows, cold), ""]
    if ruff_row is not None:
        report.append(
            f"Cold: {cold['median'] / ruff_row['median']:.1f}x ruff's time on the same files "
            f"(target 1.0x). Warm: {warm['median'] / cold['median']:.3f}x the cold run "
            "(target 0.1x)."
        )
    report += ["", f"layout-audit (cold): {summary_line(cold['stderr'])}", ""]

    torch = measure([sys.executable, "-c", "import torch"], args.runs)
    rows = [('`python -c "import torch"`', torch)]
    small = file_without_pools(tree)
    if small is not None:
        edit = Editor(small)
        rows.append(
            (
                f"`layout-audit {name}` after editing `{small.relative_to(tree)}` (no pool)",
                measure(audit_command(tree), args.runs, work, before=edit),
            )
        )
        rows.append(
            (
                f"`layout-audit --no-cache {small.name}` (that file alone)",
                measure(audit_command(small, options=("--no-cache",)), args.runs, work),
            )
        )
    host = host_pool_file(tree)
    if host is not None:
        edit = Editor(host)
        rows.append(
            (
                f"`layout-audit {name}` after editing `{host.relative_to(tree)}` (host pool)",
                measure(audit_command(tree), args.runs, work, before=edit),
            )
        )
    report += ["**Pre-commit-sized** (cache from the run before the edit)", ""]
    report += [*table(rows, torch), ""]

    if args.stages:
        report += [f"**Stages** of one in-process audit of `{given}` (no cache):", ""]
        report += stages(tree)

    if args.profile:
        report += [
            f"**cProfile** of one in-process audit of `{given}` (no cache, no workers):",
            "",
            *profile(tree, args.profile),
        ]

    text = "\n".join(report).rstrip() + "\n"
    text = text.replace(str(work) + os.sep, "")
    sys.stdout.write(text)
    if args.markdown is not None:
        args.markdown.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
